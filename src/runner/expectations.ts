import type { ExpectationVerdict, JudgedPage, RunTotals, Step } from "../core/index.js";
import type { RunContext } from "./context.js";

/** A failure whose class says the site refused the page. */
/** A page the site answered with a block or challenge page (not one our own network policy refused). */
const isBlocked = (failure: { kind: string }) => failure.kind === "blocked-page";

/** Whether the step's own `expect.failed` decides how many failed pages it may have (instead of none). */
export function expectsFailures(step: Step): boolean {
  return step.expect?.some((e) => e.kind === "count" && e.name === "failed") ?? false;
}

/** Judges a finished step's expectations over what the store holds of it; undefined when it has none. */
export function judgeStepExpectations(ctx: RunContext, step: Step): ExpectationVerdict | undefined {
  const { store, expectations: judge } = ctx.ports;
  if (!step.expect?.length || !judge) return undefined;
  const record = store.getSteps(ctx.runId).find((s) => s.stepId === step.id);
  const failures = store.failures(ctx.runId).filter((f) => f.stepId === step.id).map((f) => ({ url: f.url, blocked: isBlocked(f) }));
  const merged = step.kind === "extract" ? mergedResult(store.stepResult(ctx.runId, step.id)) : undefined;
  return judge.step(step.expect, { documents: record?.documents ?? 0, failures, pages: judgedPages(ctx, step.id), ...(merged ? { merged } : {}) });
}

/** Judges the pipeline's expectations over the run's totals; undefined when it has none. */
export function judgeRunExpectations(ctx: RunContext): ExpectationVerdict | undefined {
  const { store, expectations: judge } = ctx.ports;
  const expect = ctx.plan.pipeline.expect;
  if (!expect?.length || !judge) return undefined;
  const failures = store.failures(ctx.runId);
  const totals: RunTotals = {
    documents: store.getSteps(ctx.runId).reduce((n, s) => n + s.documents, 0),
    failed: failures.length,
    blocked: failures.filter(isBlocked).length,
    changed: store.pageChanges(ctx.runId).filter((c) => c.change.changeStatus === "changed").length,
  };
  return judge.run(expect, totals);
}

/** "expectations broken: documents, fields.products[].price" */
export function brokenSummary(verdict: ExpectationVerdict): string {
  return `expectations broken: ${verdict.results.filter((r) => !r.passed).map((r) => r.name).join(", ")}`;
}


function* judgedPages(ctx: RunContext, stepId: string): Iterable<JudgedPage> {
  for (const stored of ctx.ports.store.documents(ctx.runId, stepId)) {
    const doc = stored.document;
    yield {
      url: stored.url,
      ...(doc.json !== undefined ? { json: doc.json } : {}),
      ...(typeof doc.markdown === "string" ? { markdown: doc.markdown } : {}),
      ...(doc.changeTracking?.changeStatus ? { changeStatus: doc.changeTracking.changeStatus } : {}),
    };
  }
}

function mergedResult(text: string | undefined): { data: unknown } | undefined {
  if (text === undefined) return undefined;
  try {
    const result = JSON.parse(text) as { data?: unknown };
    return { data: result.data };
  } catch {
    return undefined;
  }
}
