import type { Plan } from "../core/index.js";
import { ScrapelineError } from "../core/index.js";
import type { RunnerPorts } from "./context.js";
import type { EventSink } from "./events.js";
import { newRunContext } from "./new-context.js";
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
  const plan = options.plan;
  const planned = plan.steps.find((s) => s.step.id === options.stepId);
  if (planned?.step.kind !== "crawl") throw new ScrapelineError("invalid-input", `run ${options.runId} has no crawl step "${options.stepId}"`);
  const emit = options.onEvent ?? (() => {});
  const ctx = newRunContext(ports, plan, options.runId, emit, { stop: options.stop, abort: new AbortController().signal, clock: Date.now, random: Math.random, halt: () => undefined });
  const step = planned.step;
  const timeout = new AbortController();
  const timer = step.timeoutMs === undefined ? undefined : setTimeout(() => timeout.abort(), step.timeoutMs);
  try {
    return await runCrawlStep(ctx, step, timeout.signal);
  } finally {
    if (timer) clearTimeout(timer);
  }
}
