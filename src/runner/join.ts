import type { Plan, Step } from "../core/index.js";
import { ScrapelineError } from "../core/index.js";
import type { RunContext, RunnerPorts } from "./context.js";
import type { EventSink } from "./events.js";
import { newRunContext } from "./new-context.js";
import type { StepTally } from "./page.js";
import { runCrawlStep, runScrapeStep, type CrawlTally } from "./steps/index.js";

export interface JoinOptions {
  /** The run another process started, whose crawl or batch step this process helps with. */
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
  return joinStep(ports, options, "crawl", runCrawlStep);
}

/**
 * Works on the scrape step of a batch another process leads, over the URLs this process claims
 * from the frontier they share (`ports.sharedUrls` hands it out): each page is fetched, stored
 * (with its scrapeId), billed and, when it fails, recorded as the step's failure, exactly as the
 * leader does with its own. The step and the run are left for the leader to finish.
 */
export async function joinBatch(ports: RunnerPorts, options: JoinOptions): Promise<StepTally> {
  if (!ports.sharedUrls) throw new ScrapelineError("internal", "joining a batch needs the frontier its URLs are shared in");
  return joinStep(ports, options, "scrape", runScrapeStep);
}

async function joinStep<K extends Step["kind"], T>(
  ports: RunnerPorts,
  options: JoinOptions,
  kind: K,
  runStep: (ctx: RunContext, step: Extract<Step, { kind: K }>, timeout: AbortSignal) => Promise<T>,
): Promise<T> {
  const plan = options.plan;
  const planned = plan.steps.find((s) => s.step.id === options.stepId);
  if (planned?.step.kind !== kind) throw new ScrapelineError("invalid-input", `run ${options.runId} has no ${kind} step "${options.stepId}"`);
  const emit = options.onEvent ?? (() => {});
  const ctx = newRunContext(ports, plan, options.runId, emit, { stop: options.stop, abort: new AbortController().signal, clock: Date.now, random: Math.random, halt: () => undefined });
  const step = planned.step as Extract<Step, { kind: K }>;
  const timeout = new AbortController();
  const timer = step.timeoutMs === undefined ? undefined : setTimeout(() => timeout.abort(), step.timeoutMs);
  try {
    return await runStep(ctx, step, timeout.signal);
  } finally {
    if (timer) clearTimeout(timer);
  }
}
