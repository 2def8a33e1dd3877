import type { RunListRow } from "../../app/ui-data/index.js";
import { html, type Html } from "../html.js";
import { badge, duration, href, page, pager, time, type ViewContext } from "../layout.js";

export const RUN_STATUSES = ["running", "succeeded", "failed", "interrupted", "budget-exhausted"] as const;

export interface RunsFilter {
  pipeline?: string;
  status?: string;
  before?: number;
}

/** The runs, newest first, with a filter by pipeline and status. */
export function runsView(ctx: ViewContext, pipelines: string[], filter: RunsFilter, rows: RunListRow[], nextBefore: number | undefined): Html {
  const option = (value: string, selected: string | undefined, label = value) => html`<option value="${value}"${value === (selected ?? "") ? html` selected` : ""}>${label}</option>`;
  const form = html`<form class="filters" method="get" action="${href(ctx, "/")}">
<label>Pipeline <select name="pipeline">${option("", filter.pipeline, "all")}${pipelines.map((p) => option(p, filter.pipeline))}</select></label>
<label>Status <select name="status">${option("", filter.status, "all")}${RUN_STATUSES.map((s) => option(s, filter.status))}</select></label>
<button type="submit">Filter</button></form>`;
  const body = rows.length
    ? html`<div class="scroll"><table class="runs">
<thead><tr><th>Run</th><th>Pipeline</th><th>Status</th><th>Started</th><th class="num wide">Duration</th><th class="num">Docs</th><th class="num">Failed</th><th class="num">Changed</th><th class="num">New</th><th class="num">Removed</th><th class="num">Credits</th></tr></thead>
<tbody>${rows.map(
        ({ run, documents, failures, changes }) => html`<tr data-run="${run.id}">
<td><a href="${href(ctx, `/runs/${run.id}`)}">#${run.id}</a></td>
<td><a href="${href(ctx, "/", { pipeline: run.pipelineName })}">${run.pipelineName}</a></td>
<td>${badge("status", run.status)}</td>
<td>${time(run.startedAt)}</td>
<td class="num wide">${duration(run.finishedAt ? Date.parse(run.finishedAt) - Date.parse(run.startedAt) : null)}</td>
<td class="num">${documents}</td>
<td class="num">${failures}</td>
<td class="num">${changes.changed ? html`<a href="${href(ctx, `/runs/${run.id}/changes`, { status: "changed" })}">${changes.changed}</a>` : 0}</td>
<td class="num">${changes.new}</td>
<td class="num">${changes.removed ? html`<a href="${href(ctx, `/runs/${run.id}/changes`, { status: "removed" })}">${changes.removed}</a>` : 0}</td>
<td class="num">${run.creditsUsed}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p class="muted">No runs${filter.pipeline || filter.status ? " match the filter" : " yet"}.</p>`;
  const next = nextBefore === undefined ? undefined : href(ctx, "/", { pipeline: filter.pipeline, status: filter.status, before: nextBefore });
  const first = filter.before === undefined ? undefined : href(ctx, "/", { pipeline: filter.pipeline, status: filter.status });
  return page(ctx, "Runs", html`<h1>Runs</h1>${form}${body}${pager(first, next, "← Newest")}${filter.pipeline ? html`<p><a href="${href(ctx, "/charts", { pipeline: filter.pipeline })}">Charts of ${filter.pipeline}</a></p>` : ""}`, "runs");
}
