import type { ExpectationVerdict, Plan, PlannedStep, RunRecord, RunStatus } from "../core/index.js";
import type { EventSink } from "./events.js";
import type { RunContext, RunnerPorts } from "./context.js";
import { runCrawlStep } from "./steps/index.js";
import { runExtractStep } from "./steps/index.js";
import { runMapStep } from "./steps/index.js";
import { runParseStep } from "./steps/index.js";
import { runRemoteCrawlStep } from "./steps/index.js";
import { runScrapeStep } from "./steps/index.js";
import { runSearchStep } from "./steps/index.js";
import { openStepSession } from "./sessions/index.js";
import { runInteractStep } from "./steps/index.js";
import { closeKeptPages } from "./sessions/index.js";
import { runAgentStep } from "./steps/index.js";
import { newRunContext } from "./new-context.js";
import { brokenSummary, expectsFailures, judgeRunExpectations, judgeStepExpectations } from "./expectations.js";

export type { RunContext, RunnerPorts };


export interface RunOptions {
  plan: Plan;
  /** The normalized pipeline with environment values masked, kept with the run. */
  planJson: string;
  pipelineHash: string;
  /** Continue this run instead of starting a new one. */
  resume?: RunRecord;
  /** The pipeline file and the flags that finish this run with --resume, kept with it. */
  resumeWords?: readonly string[];
  /** Stop starting new work; pages in flight finish and are stored (first Ctrl-C). */
  stop?: AbortSignal;
  /** Abort pages in flight too (second Ctrl-C). */
  abort?: AbortSignal;
  onEvent?: EventSink;
  clock?: () => number;
  random?: () => number;
}

export interface RunResult {
  runId: number;
  status: RunStatus;
  credits: number;
  failedSteps: string[];
  /** Documents stored per step in the whole run (a resumed run's earlier attempts included). */
  documents: Record<string, number>;
  /** Every failure of the run was a broken expectation (its steps' or the pipeline's). */
  cause?: "expectation";
  /** The verdict of the pipeline's own expectations. */
  expectations?: ExpectationVerdict;
}

type Outcome = "succeeded" | "failed" | "skipped" | "cancelled";

/**
 * Executes a plan: each step starts when the steps it depends on have succeeded, independent
 * steps run at the same time, every request shares one pool (global and per-host limits), and
 * every page is stored as it finishes. A failed step skips its dependents and, unless it has
 * continueOnError, stops the run from starting more steps.
 */
export async function runPlan(ports: RunnerPorts, options: RunOptions): Promise<RunResult> {
  const { plan, store } = { plan: options.plan, store: ports.store };
  const pipeline = plan.pipeline;
  const emit = options.onEvent ?? (() => {});
  const run = options.resume ?? store.createRun({ pipelineName: pipeline.name, pipelineFile: pipeline.file, pipelineHash: options.pipelineHash, planJson: options.planJson, engine: ports.engine.name, ...(options.resumeWords ? { resumeWords: options.resumeWords } : {}) });
  if (options.resume) store.reopenRun(run.id, options.resumeWords);
  emit({ type: "run-started", runId: run.id, pipeline: pipeline.name, file: pipeline.file, resumed: Boolean(options.resume) });

  const stopController = new AbortController();
  const stop = AbortSignal.any([stopController.signal, ...(options.stop ? [options.stop] : [])]);
  const ctx: RunContext = newRunContext(ports, plan, run.id, emit, {
    stop,
    abort: options.abort ?? new AbortController().signal,
    clock: options.clock ?? Date.now,
    random: options.random ?? Math.random,
    halt: (reason) => halt(reason),
  });

  const previously = new Map(options.resume ? store.getSteps(run.id).map((s) => [s.stepId, s.status]) : []);
  const outcomes = new Map<string, Promise<Outcome>>();
  /** Steps that failed only because their expectations broke. */
  const expectationFailures = new Set<string>();
  let stoppedBy: string | undefined;
  /** Why no more steps start (a step failed): steps already running go on to their end. */
  let noNewSteps: string | undefined;

  const execute = async (planned: PlannedStep): Promise<Outcome> => {
    const { step } = planned;
    const deps = await Promise.all(planned.dependsOn.map(async (id) => [id, await outcomes.get(id)!] as const));
    const blocked = deps.find(([, outcome]) => outcome !== "succeeded");
    if (previously.get(step.id) === "succeeded") {
      emit({ type: "step-skipped", stepId: step.id, reason: `already finished in run ${run.id}` });
      return "succeeded";
    }
    if (blocked) return skip(step.id, `needs "${blocked[0]}", which ${blocked[1] === "failed" ? "failed" : `was ${blocked[1]}`}`);
    if (stop.aborted || noNewSteps !== undefined) return skip(step.id, stoppedBy ?? noNewSteps ?? "the run was interrupted");

    store.startStep(run.id, step.id, step.kind);
    const stepController = new AbortController();
    const timer = step.timeoutMs === undefined ? undefined : setTimeout(() => stepController.abort(), step.timeoutMs);
    try {
      let result: { documents: number; failures: number; cancelled: boolean; remoteCancelled?: boolean; found?: number; skippedByRobots?: number; skippedByRules?: number };
      await openStepSession(ctx, step, stepController.signal);
      if (step.kind === "scrape") result = await runScrapeStep(ctx, step, stepController.signal);
      else if (step.kind === "crawl") result = ports.engine.startCrawl ? await runCrawlStep(ctx, step, stepController.signal) : await runRemoteCrawlStep(ctx, step, stepController.signal);
      else if (step.kind === "map") result = await runMapStep(ctx, step, stepController.signal);
      else if (step.kind === "extract") result = await runExtractStep(ctx, step, stepController.signal);
      else if (step.kind === "search") result = await runSearchStep(ctx, step, stepController.signal);
      else if (step.kind === "interact") result = await runInteractStep(ctx, step, stepController.signal);
      else if (step.kind === "agent") result = await runAgentStep(ctx, step, stepController.signal);
      else result = await runParseStep(ctx, step, stepController.signal);
      const record = store.getSteps(run.id).find((s) => s.stepId === step.id);
      const timedOut = stepController.signal.aborted;
      // A remote job stopped by the step's timeout was cancelled on the service, and is reported so.
      const cancelled = result.cancelled && (!timedOut || result.remoteCancelled);
      // With `expect.failed`, the expectation decides how many failed pages the step may have.
      const pagesFailed = result.failures > 0 && !expectsFailures(step);
      const verdict = cancelled ? undefined : judgeStepExpectations(ctx, step);
      const broken = verdict !== undefined && !verdict.passed;
      const status: Outcome = cancelled ? "cancelled" : pagesFailed || timedOut || broken ? "failed" : "succeeded";
      const causes = cancelled && !timedOut
        ? [`cancelled: ${stoppedBy ?? "the run was interrupted"}`]
        : [timedOut ? `step timed out after ${step.timeoutMs} ms${result.remoteCancelled ? "; the service's job was cancelled" : ""}` : pagesFailed ? `${result.failures} page(s) failed` : undefined, broken ? brokenSummary(verdict) : undefined].filter((c) => c !== undefined);
      const error = causes.length ? causes.join("; ") : undefined;
      const cause = broken && !pagesFailed && !timedOut ? ("expectation" as const) : undefined;
      if (cause) expectationFailures.add(step.id);
      store.finishStep(run.id, step.id, status, error, verdict);
      const crawl = result.found === undefined ? undefined : { found: result.found, skippedByRobots: result.skippedByRobots ?? 0, skippedByRules: result.skippedByRules ?? 0 };
      emit({ type: "step-finished", stepId: step.id, status, documents: result.documents, failures: result.failures, credits: record?.creditsUsed ?? 0, ...(error ? { error } : {}), ...(crawl ? { crawl } : {}), ...(cause ? { cause } : {}), ...(verdict ? { expectations: verdict } : {}) });
      if (status === "failed" && !step.continueOnError) startNoMoreSteps(step.id);
      return status;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      store.finishStep(run.id, step.id, "failed", message);
      emit({ type: "step-finished", stepId: step.id, status: "failed", documents: 0, failures: 0, credits: 0, error: message });
      if (!step.continueOnError) startNoMoreSteps(step.id);
      return "failed";
    } finally {
      if (timer) clearTimeout(timer);
    }
  };

  function skip(stepId: string, reason: string): Outcome {
    store.finishStep(run.id, stepId, "skipped", reason);
    emit({ type: "step-skipped", stepId, reason });
    return "skipped";
  }

  /** A failed step stops the run from starting more steps; the ones running finish and are stored. */
  function startNoMoreSteps(failedStep: string): void {
    noNewSteps ??= `the run stopped: step "${failedStep}" failed`;
  }

  /** Stops all work, pages in flight aside (the budget is spent). */
  function halt(reason: string): void {
    if (stoppedBy === undefined) stoppedBy = `the run stopped: ${reason}`;
    stopController.abort();
  }

  for (const planned of plan.steps) outcomes.set(planned.step.id, execute(planned));
  const results = await Promise.all(plan.steps.map((p) => outcomes.get(p.step.id)!));
  await closeKeptPages(ctx);

  const failedSteps = plan.steps.filter((_, i) => results[i] === "failed").map((p) => p.step.id);
  const ended: RunStatus | undefined = ctx.budget.exhausted ? "budget-exhausted" : options.stop?.aborted || options.abort?.aborted ? "interrupted" : undefined;
  // The pipeline's expectations judge a run that went to its end; a stopped run is not judged.
  const verdict = ended ? undefined : judgeRunExpectations(ctx);
  const runBroken = verdict !== undefined && !verdict.passed;
  const status: RunStatus = ended ?? (failedSteps.length > 0 || runBroken ? "failed" : "succeeded");
  const cause = status === "failed" && failedSteps.every((id) => expectationFailures.has(id)) ? ("expectation" as const) : undefined;
  const errors = [failedSteps.length ? `failed steps: ${failedSteps.join(", ")}` : undefined, runBroken ? `the pipeline's ${brokenSummary(verdict)}` : undefined].filter((e) => e !== undefined);
  store.finishRun(run.id, status, errors.length ? errors.join("; ") : undefined, verdict);
  const credits = store.getRun(run.id)?.creditsUsed ?? ctx.budget.total;
  const documents = Object.fromEntries(store.getSteps(run.id).map((s) => [s.stepId, s.documents]));
  emit({ type: "run-finished", runId: run.id, status, credits, ...(cause ? { cause } : {}), ...(verdict ? { expectations: verdict } : {}) });
  return { runId: run.id, status, credits, failedSteps, documents, ...(cause ? { cause } : {}), ...(verdict ? { expectations: verdict } : {}) };
}
