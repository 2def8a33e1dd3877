import type { RunView, StepEntry } from "../../app/ui-data/index.js";
import { html, type Html } from "../html.js";
import { badge, duration, href, page, pager, time, type ViewContext } from "../layout.js";

export const PAGE_SIZE = 50;

export interface StepPages {
  stepId: string;
  offset: number;
  total: number;
  pages: Array<StepEntry & { changeStatus?: string }>;
}

export interface FailurePage {
  offset: number;
  total: number;
  rows: Array<{ stepId: string; url: string; kind: string; error: string; failedAt: string }>;
}

/** A run: its figures, steps, credits, warnings, extract results, failed pages and documents. */
export function runView(ctx: ViewContext, view: RunView, steps: StepPages[], failures: FailurePage, query: Record<string, string | undefined>): Html {
  const { run } = view;
  const runPath = `/runs/${run.id}`;
  const tracked = view.changes.new + view.changes.same + view.changes.changed + view.changes.removed;
  const card = (label: string, value: string | number | Html) => html`<div class="card"><b>${value}</b>${label}</div>`;
  const summary = html`<div class="cards">
${card("status", badge("status", run.status))}${card("documents", view.documents)}${card("failed pages", view.failures)}${card("credits", run.creditsUsed)}${card("duration", duration(view.durationMs))}
${tracked ? html`${card("changed", view.changes.changed)}${card("new", view.changes.new)}${card("removed", view.changes.removed)}${card("same", view.changes.same)}` : ""}</div>
<dl class="meta"><dt>Pipeline</dt><dd><a href="${href(ctx, "/", { pipeline: run.pipelineName })}">${run.pipelineName}</a> <span class="muted">${run.pipelineFile}</span></dd>
<dt>Engine</dt><dd>${run.engine}</dd><dt>Started</dt><dd>${time(run.startedAt)}</dd><dt>Finished</dt><dd>${time(run.finishedAt)}</dd>
${run.error ? html`<dt>Error</dt><dd>${run.error}</dd>` : ""}</dl>
<p>${tracked ? html`<a href="${href(ctx, `${runPath}/changes`)}">What changed in this run</a> · ` : ""}<a href="${href(ctx, "/charts", { pipeline: run.pipelineName })}">Charts of ${run.pipelineName}</a></p>`;

  const stepTable = html`<h2 id="steps">Steps</h2><div class="scroll"><table>
<thead><tr><th>Step</th><th>Kind</th><th>Status</th><th class="num">Docs</th><th class="num">Failed</th><th class="num">Retries</th><th class="num">Credits</th><th class="wide">Started</th><th>Error</th></tr></thead>
<tbody>${view.steps.map((s) => html`<tr data-step="${s.stepId}"><td><a href="#step-${s.stepId}">${s.stepId}</a></td><td>${s.kind}</td><td>${badge("status", s.status)}</td><td class="num">${s.documents}</td><td class="num">${s.failures}</td><td class="num" data-col="retries">${s.retries}</td><td class="num">${s.creditsUsed}</td><td class="wide">${time(s.startedAt)}</td><td>${s.error ?? ""}</td></tr>`)}</tbody></table></div>`;

  const credits = view.credits.length
    ? html`<h2>Credits by reason</h2><div class="scroll"><table><thead><tr><th>Step</th><th>Reason</th><th class="num">Credits</th></tr></thead><tbody>${view.credits.map((c) => html`<tr><td>${c.stepId}</td><td>${c.reason}</td><td class="num">${c.credits}</td></tr>`)}</tbody></table></div>`
    : "";

  const warnings = view.warnings.length
    ? html`<h2 id="warnings">Warnings</h2><ul class="warnings">${view.warnings.map((w) => html`<li>[${w.stepId}] ${w.url ? html`<span class="url">${w.url}</span>: ` : ""}${w.message}</li>`)}</ul>`
    : "";

  const results = Object.entries(view.results).length
    ? html`<h2 id="results">Extract results</h2>${Object.entries(view.results).map(
        ([stepId, r]) => html`<h3>${stepId}: ${badge("status", r.status === "completed" ? "succeeded" : r.status)} <span class="muted">${r.tokensUsed} tokens, ${r.creditsUsed} credits</span></h3>
${r.error ? html`<p>Error: ${r.error}</p>` : ""}${r.warning ? html`<p>Warning: ${r.warning}</p>` : ""}<pre class="raw extract-data">${JSON.stringify(r.data, null, 2)}</pre>`,
      )}`
    : "";

  const failurePager = pager(
    failures.offset > 0 ? href(ctx, runPath, { ...query, foffset: Math.max(0, failures.offset - PAGE_SIZE) }) + "#failures" : undefined,
    failures.offset + PAGE_SIZE < failures.total ? href(ctx, runPath, { ...query, foffset: failures.offset + PAGE_SIZE }) + "#failures" : undefined,
  );
  const failed = failures.total
    ? html`<h2 id="failures">Failed pages (${failures.total})</h2><div class="scroll"><table><thead><tr><th>Step</th><th>URL</th><th>Kind</th><th>Reason</th></tr></thead>
<tbody>${failures.rows.map((f) => html`<tr class="failure"><td>${f.stepId}</td><td class="url">${f.url}</td><td>${f.kind === "blocked-page" ? "blocked" : f.kind}</td><td>${f.error}</td></tr>`)}</tbody></table></div>${failurePager}`
    : "";

  const documents = steps.map((s) => {
    const stepQuery = (offset: number) => href(ctx, runPath, { ...query, step: s.stepId, offset }) + `#step-${s.stepId}`;
    return html`<h3 id="step-${s.stepId}">${s.stepId} <span class="muted">${s.total} document(s)${s.total > PAGE_SIZE ? `, ${s.offset + 1}–${Math.min(s.total, s.offset + PAGE_SIZE)} shown` : ""}</span></h3>
${s.total ? html`<div class="scroll"><table class="documents"><thead><tr><th>URL</th><th class="num">Status</th><th class="num">Credits</th><th>Change</th></tr></thead>
<tbody>${s.pages.map((d) => html`<tr><td class="url"><a href="${href(ctx, `${runPath}/doc`, { step: s.stepId, url: d.url })}">${d.url}</a></td><td class="num">${d.statusCode}</td><td class="num">${d.credits}</td><td>${d.changeStatus ? badge("change", d.changeStatus) : ""}</td></tr>`)}</tbody></table></div>` : ""}
${pager(s.offset > 0 ? stepQuery(Math.max(0, s.offset - PAGE_SIZE)) : undefined, s.offset + PAGE_SIZE < s.total ? stepQuery(s.offset + PAGE_SIZE) : undefined)}`;
  });

  return page(ctx, `Run #${run.id}`, html`<h1>Run #${run.id} <span class="muted">${run.pipelineName}</span></h1>${summary}${stepTable}${credits}${warnings}${results}${failed}<h2 id="documents">Documents</h2>${documents}`, "runs");
}
