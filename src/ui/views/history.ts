import type { SnapshotRecord } from "../../core/index.js";
import type { VersionDiff } from "../../app/ui-data/index.js";
import { html, type Html } from "../html.js";
import { href, page, time, type ViewContext } from "../layout.js";
import { diffTable, type DiffLayout } from "./diff.js";
import { layoutSwitch } from "./layout-switch.js";

/** A page's versions on a timeline (per tag); any two are compared with the form (a GET: works without script). */
export function historyView(ctx: ViewContext, url: string, versions: SnapshotRecord[], chosen: { a?: number; b?: number; layout: DiffLayout }, diff: VersionDiff | undefined): Html {
  const search = html`<form class="filters" method="get" action="${href(ctx, "/history")}"><label>Page URL <input type="url" name="url" value="${url}" size="60" required></label><button type="submit">Show history</button></form>`;
  if (!url) return page(ctx, "Page history", html`<h1>Page history</h1>${search}<p class="muted">Name a page tracked with the changeTracking format; its versions are listed here.</p>`, "history");
  if (versions.length === 0) return page(ctx, "Page history", html`<h1>Page history</h1>${search}<p class="muted">No stored version of ${url}.</p>`, "history");
  const tags = [...new Set(versions.map((v) => v.tag))];
  const radio = (name: "a" | "b", v: SnapshotRecord) => html`<label><input type="radio" name="${name}" value="${v.id}"${chosen[name] === v.id ? html` checked` : ""}> ${name === "a" ? "from" : "to"}</label>`;
  const timeline = tags.map((tag) => {
    const line = versions.filter((v) => v.tag === tag);
    return html`<h2>${tag === null ? "Default" : html`Tag <code>${tag}</code>`} <span class="muted">(${line.length} version(s))</span></h2><ol class="timeline">${line.map(
      (v) => html`<li data-version="${v.version}"><b>Version ${v.version}</b> ${v.statusCode !== null ? html`<span class="muted">status ${v.statusCode}</span>` : ""}<br>
first seen ${time(v.firstSeenAt)}${v.firstRunId !== null ? html` in <a href="${href(ctx, `/runs/${v.firstRunId}`)}">run #${v.firstRunId}</a>` : ""}, last seen ${time(v.lastSeenAt)}${v.lastRunId !== null ? html` in <a href="${href(ctx, `/runs/${v.lastRunId}`)}">run #${v.lastRunId}</a>` : ""}<br>${radio("a", v)} ${radio("b", v)}</li>`,
    )}</ol>`;
  });
  const compareForm = html`<form method="get" action="${href(ctx, "/history")}"><input type="hidden" name="url" value="${url}">${chosen.layout === "inline" ? html`<input type="hidden" name="view" value="inline">` : ""}${timeline}<button type="submit">Compare the chosen versions</button></form>`;
  const link = (l: DiffLayout) => href(ctx, "/history", { url, a: chosen.a, b: chosen.b, view: l === "side" ? undefined : l }) + "#compare";
  const comparison = diff ? html`<h2 id="compare">Version ${diff.from.version} → ${diff.to.version} <span class="muted">${diff.added} added, ${diff.removed} removed</span></h2>${layoutSwitch(chosen.layout, link)}${diffTable(diff, chosen.layout)}` : "";
  return page(ctx, `History of ${url}`, html`<h1>History of <span class="url">${url}</span></h1>${search}${comparison}${compareForm}`, "history");
}
