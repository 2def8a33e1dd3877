import { html, type Html } from "../html.js";
import type { DiffLayout } from "./diff.js";

/** Links between the side-by-side and the inline layout of a page's diffs (a query parameter: works without script). */
export function layoutSwitch(current: DiffLayout, link: (layout: DiffLayout) => string): Html {
  const tab = (layout: DiffLayout, label: string) => html`<a href="${link(layout)}"${current === layout ? html` aria-current="page"` : ""}>${label}</a>`;
  return html`<nav class="tabs" aria-label="Diff layout">${tab("side", "Side by side")}${tab("inline", "Inline")}</nav>`;
}

export function readLayout(value: string | null): DiffLayout {
  return value === "inline" ? "inline" : "side";
}
