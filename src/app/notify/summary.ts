import type { CheckSummary, NotifyConfig, NotifyEvent, RunRecord, Store } from "../../core/index.js";
import type { BrokenExpectation, PagePayload, RunSummaryPayload } from "./payload.js";
import { pageEvents, worthTelling } from "./rules.js";

/** The failure kind of a page the site answered with a block or challenge page. */
export const BLOCKED_PAGE = "blocked-page";

/** Diffs longer than this are cut in notifications (the database keeps them whole). */
const MAX_DIFF_CHARS = 20_000;

/** The summary of a run: counts of every page, the pages worth telling, failed pages when `on` has failed. */
export function runSummary(store: Store, runId: number, config: Pick<NotifyConfig, "on" | "rules">): RunSummaryPayload {
  const run = store.getRun(runId)!;
  const counts: Record<NotifyEvent, number> = { changed: 0, new: 0, removed: 0, hidden: 0, failed: 0 };
  const summary: CheckSummary = { totalPages: 0, same: 0, changed: 0, new: 0, removed: 0, error: 0 };
  const pages: PagePayload[] = [];
  const broken = brokenExpectations(store, run);
  // Pages of a recipe that broke are not told as content changes: a redesign is not news about the content.
  const brokenSteps = new Set(broken.map((b) => b.stepId));
  const untold = (stepId: string) => brokenSteps.has(undefined) || brokenSteps.has(stepId);
  for (const { stepId, url, change } of store.pageChanges(runId)) {
    summary.totalPages++;
    summary[change.changeStatus]++;
    for (const event of pageEvents(change)) counts[event]++;
    if (untold(stepId)) continue;
    const diff = change.diff?.text;
    const facts = {
      changeStatus: change.changeStatus,
      visibility: change.visibility,
      ...(diff !== undefined ? { diff } : {}),
      markdown: () => documentOf(store, runId, stepId, url)?.markdown,
      json: () => ({ current: documentOf(store, runId, stepId, url)?.json, previous: previousJson(store, run.pipelineName, runId, stepId, url) }),
    };
    if (!worthTelling(facts, config.on, config.rules)) continue;
    pages.push({ stepId, url, changeStatus: change.changeStatus, visibility: change.visibility, previousScrapeAt: change.previousScrapeAt, ...(diff ? { diff: diff.length > MAX_DIFF_CHARS ? `${diff.slice(0, MAX_DIFF_CHARS)}\n… (cut)` : diff } : {}) });
  }
  const failures = store.failures(runId).map(({ stepId, url, kind, error }) => ({ stepId, url, kind, error }));
  counts.failed = failures.length;
  summary.error = failures.length;
  const blocked = failures.filter((f) => f.kind === BLOCKED_PAGE).length;
  if (blocked > 0) summary.blocked = blocked;
  summary.totalPages += failures.length;
  return {
    event: "monitor.check.completed",
    pipeline: run.pipelineName,
    runId,
    status: run.status,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    credits: run.creditsUsed,
    counts,
    summary,
    pages,
    failures: config.on.includes("failed") ? failures : [],
    ...(broken.length ? { brokenExpectations: broken } : {}),
  };
}

/** Every expectation of the run (its steps' and the pipeline's) that broke. */
function brokenExpectations(store: Store, run: RunRecord): BrokenExpectation[] {
  const verdicts = [...store.getSteps(run.id).map((s) => ({ stepId: s.stepId as string | undefined, verdict: s.expectations })), { stepId: undefined, verdict: run.expectations }];
  return verdicts.flatMap(({ stepId, verdict }) =>
    (verdict?.results ?? []).filter((r) => !r.passed).map((r) => ({ ...(stepId !== undefined ? { stepId } : {}), name: r.name, line: r.at.line, column: r.at.column, problems: r.problems, pages: r.pages })),
  );
}

function documentOf(store: Store, runId: number, stepId: string, url: string): { markdown?: string; json?: unknown } | undefined {
  for (const record of store.documents(runId, stepId, new Set([url]))) return record.document;
  return undefined;
}

function previousJson(store: Store, pipelineName: string, runId: number, stepId: string, url: string): unknown {
  const previous = store.previousStepRun(pipelineName, stepId, runId);
  return previous ? documentOf(store, previous.runId, stepId, url)?.json : undefined;
}
