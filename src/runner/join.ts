import type { Plan } from "../core/index.js";
import { ScrapelineError } from "../core/index.js";
import { Budget } from "./budget.js";
import type { RunContext, RunnerPorts } from "./context.js";
import type { EventSink } from "./events.js";
import { WorkPool } from "./pool.js";
import { countingRetries } from "./retries.js";
import { runCrawlStep, type CrawlTally } from "./steps/index.js";

export interface JoinOptions {
  /** The run another process started, whose crawl step this process helps with. */
  runId: number;
  plan: Plan;
  stepId: string;
  /** Stop taking pages; pages in flight finish and are stored. */
  stop: AbortSignal;
  onEvent?: EventSink;
}

/**
 * Works on the crawl step of a run another process leads, through a frontier they share (the
 * engine's `startCrawl` hands it out): pages are fetched, stored and billed to that run and step
 * exactly as its own process stores them. The step and the run are left for the leader to finish.
 */
export async function joinCrawl(ports: RunnerPorts, options: JoinOptions): Promise<CrawlTally> {
  const { plan, store } = { plan: options.plan, store: ports.store };
  const planned = plan.steps.find((s) => s.step.id === options.stepId);
  if (planned?.step.kind !== "crawl") throw new ScrapelineError("invalid-input", `run ${options.runId} has no crawl step "${options.stepId}"`);
  const pipeline = plan.pipeline;
  const emit = options.onEvent ?? (() => {});
  const ctx: RunContext = {
    runId: options.runId,
    ports,
    plan,
    pool: new WorkPool({ concurrency: pipeline.concurrency, perHostConcurrency: pipeline.perHostConcurrency }, Date.now, ports.hosts),
    budget: new Budget(pipeline.budget.maxCredits, store.getRun(options.runId)?.creditsUsed ?? 0),
    emit: countingRetries(emit, store, options.runId),
    stop: options.stop,
    abort: new AbortController().signal,
    clock: Date.now,
    random: Math.random,
    cacheHolds: new Map(),
    halt: () => undefined,
  };
  const step = planned.step;
  const timeout = new AbortController();
  const timer = step.timeoutMs === undefined ? undefined : setTimeout(() => timeout.abort(), step.timeoutMs);
  try {
    return await runCrawlStep(ctx, step, timeout.signal);
  } finally {
    if (timer) clearTimeout(timer);
  }
}
