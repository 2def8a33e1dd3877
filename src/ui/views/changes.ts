import type { ChangedPage } from "../../app/ui-data/index.js";
import { html, type Html } from "../html.js";
import { badge, href, page, pager, time, type ViewContext } from "../layout.js";
import { diffTable, jsonChangesTable, type DiffLayout } from "./diff.js";
import { layoutSwitch } from "./layout-switch.js";

export const CHANGES_PAGE_SIZE = 20;
export const CHANGE_FILTERS = ["changed", "new", "removed", "hidden"] as const;

/** The pages of a run that are not the same, each with its diff (side by side or inline) and json-mode field changes. */
export function changesView(ctx: ViewContext, runId: number, filter: { status?: string; offset: number; layout: DiffLayout }, result: { total: number; pages: ChangedPage[] }): Html {
  const path = `/runs/${runId}/changes`;
  const link = (extra: Record<string, string | number | undefined>) => href(ctx, path, { status: filter.status, view: filter.layout === "side" ? undefined : filter.layout, offset: filter.offset || undefined, ...extra });
  const filters = html`<nav class="tabs" aria-label="Which changes">${[undefined, ...CHANGE_FILTERS].map(
    (s) => html`<a href="${link({ status: s, offset: undefined })}"${filter.status === s ? html` aria-current="page"` : ""}>${s ?? "all"}</a>`,
  )}</nav>`;
  const pages = result.pages.map(
    (p, i) => html`<section class="change" data-url="${p.url}" aria-labelledby="change-${i}">
<h3 id="change-${i}">${badge("change", p.change.changeStatus)} ${p.change.visibility === "hidden" ? badge("change", "hidden") : ""} <a href="${href(ctx, `/runs/${runId}/doc`, { step: p.stepId, url: p.url })}">${p.url}</a></h3>
<p class="muted">step ${p.stepId} · previous scrape ${time(p.change.previousScrapeAt)} · <a href="${href(ctx, "/history", { url: p.url })}">history</a>${p.diff ? ` · version ${p.diff.from.version} → ${p.diff.to.version}, ${p.diff.added} added, ${p.diff.removed} removed` : ""}</p>
${p.diff ? diffTable(p.diff, filter.layout) : p.change.diff ? html`<pre class="raw">${p.change.diff.text}</pre>` : ""}
${p.change.json !== undefined ? html`<h4>Changed fields</h4>${jsonChangesTable(p.change.json)}` : ""}</section>`,
  );
  const body = result.total
    ? html`<p class="muted">${result.total} page(s)${result.total > CHANGES_PAGE_SIZE ? `, ${filter.offset + 1}–${Math.min(result.total, filter.offset + CHANGES_PAGE_SIZE)} shown` : ""}.</p>${layoutSwitch(filter.layout, (l) => link({ view: l === "side" ? undefined : l }))}${pages}`
    : html`<p class="muted">No page ${filter.status ? `is ${filter.status}` : "changed"} in this run.</p>`;
  const nav = pager(
    filter.offset > 0 ? link({ offset: Math.max(0, filter.offset - CHANGES_PAGE_SIZE) || undefined }) : undefined,
    filter.offset + CHANGES_PAGE_SIZE < result.total ? link({ offset: filter.offset + CHANGES_PAGE_SIZE }) : undefined,
  );
  return page(ctx, `Changes of run #${runId}`, html`<p><a href="${href(ctx, `/runs/${runId}`)}">← Run #${runId}</a></p><h1>Changes of run #${runId}</h1>${filters}${body}${nav}`, "runs");
}
