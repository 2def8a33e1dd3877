import type { CrawlJobPort, Document, OnEngineWait, ScrapeOptions, Step } from "../../core/index.js";
import { isScrapelineError, ScrapelineError } from "../../core/index.js";
import type { RunContext } from "../context.js";
import type { CrawlTally } from "./crawl-step.js";

type CrawlStep = Extract<Step, { kind: "crawl" }>;
type ScrapeStep = Extract<Step, { kind: "scrape" }>;
export type JobTally = CrawlTally & { remoteCancelled?: boolean };

/** Progress kept for --resume: the job, and how many of its pages were taken. */
interface JobState {
  jobId: string;
  taken: number;
}

const SAVE_EVERY = 10;

/** A crawl run by the service. A crawl whose `limit` could spend more than the budget has left does not start. */
export function runRemoteCrawlStep(ctx: RunContext, step: CrawlStep, timeout: AbortSignal): Promise<JobTally> {
  const { engine } = ctx.ports;
  if (!engine.startCrawlJob) throw new ScrapelineError("unsupported", `the ${engine.name} engine cannot run crawl steps`);
  const start = (signal: AbortSignal, jobId?: string) => engine.startCrawlJob!(step.body, { signal, onWait: waitsOf(ctx, step.id), ...(jobId ? { jobId } : {}) });
  return runRemoteJob(ctx, { stepId: step.id, kind: step.kind, options: step.body.scrapeOptions, pages: step.body.limit, start }, timeout);
}

/** A multi-URL scrape step as one batch job on the service. */
export function runRemoteBatchStep(ctx: RunContext, step: ScrapeStep, urls: string[], timeout: AbortSignal): Promise<JobTally> {
  const { engine } = ctx.ports;
  const { urls: _urls, ...options } = step.body;
  const start = (signal: AbortSignal, jobId?: string) => engine.startBatchJob!(urls, options, { signal, onWait: waitsOf(ctx, step.id), ...(jobId ? { jobId } : {}) });
  return runRemoteJob(ctx, { stepId: step.id, kind: step.kind, options, pages: urls.length, start }, timeout);
}

interface RemoteJob {
  stepId: string;
  kind: string;
  options: ScrapeOptions;
  /** The most pages the job can produce, for the budget check. */
  pages: number;
  start: (signal: AbortSignal, jobId?: string) => Promise<CrawlJobPort>;
}

/**
 * Drives a job on the service: started once (its id kept for --resume), its pages stored as the
 * status pages list them, each once, with the credits the service billed; when the step is
 * stopped (Ctrl-C or its timeout) the job is cancelled on the service.
 */
async function runRemoteJob(ctx: RunContext, job: RemoteJob, timeout: AbortSignal): Promise<JobTally> {
  const { store, credits } = ctx.ports;
  const saved = readState(store.stepState(ctx.runId, job.stepId));
  const tally: JobTally = { documents: 0, failures: 0, cancelled: false, found: 0, skippedByRobots: 0, skippedByRules: 0 };
  const worst = credits.estimatePage(job.options) * job.pages;
  if (!ctx.budget.reserve(worst)) {
    ctx.emit({ type: "budget-exhausted", spent: ctx.budget.total, limit: ctx.budget.limit ?? 0, needed: worst });
    ctx.halt(`a ${job.kind} of up to ${job.pages} pages could cost ${worst} credits, more than the budget of ${ctx.budget.limit} has left`);
    tally.cancelled = true;
    return tally;
  }
  const stop = AbortSignal.any([ctx.stop, timeout]);
  let spent = 0;
  try {
    const remote = await job.start(AbortSignal.any([timeout, ctx.abort]), saved?.jobId);
    let taken = saved?.taken ?? 0;
    const save = () => store.saveStepState(ctx.runId, job.stepId, JSON.stringify({ jobId: remote.id, taken } satisfies JobState));
    save();
    ctx.emit({ type: "step-started", stepId: job.stepId, kind: job.kind, ...(job.kind === "scrape" ? { total: job.pages } : {}) });
    const stored = store.storedUrls(ctx.runId, job.stepId);
    try {
      for await (const document of remote.pages(taken, stop)) {
        taken++;
        const url = document.metadata?.sourceURL || document.metadata?.url;
        if (url && !stored.has(url)) {
          stored.add(url);
          spent += await storePage(ctx, job, url, document);
          tally.documents++;
        }
        if (taken % SAVE_EVERY === 0) save();
      }
    } catch (error) {
      if (!(stop.aborted && isScrapelineError(error, "cancelled"))) throw error;
    } finally {
      save();
    }
    const last = remote.last;
    tally.found = last?.total ?? taken;
    if (!stop.aborted && last?.status === "cancelled") {
      throw new ScrapelineError("http-status", `the service's ${job.kind} job ${remote.id} was cancelled before it finished (${tally.documents} page(s) stored in this run); start a new run to ${job.kind} again`);
    }
    if (last?.warning) ctx.emit({ type: "step-warning", stepId: job.stepId, message: last.warning });
    if (stop.aborted) {
      tally.cancelled = true;
      const confirmed = await remote.cancel().catch(() => false);
      tally.remoteCancelled = confirmed;
      if (!confirmed) ctx.emit({ type: "step-warning", stepId: job.stepId, message: `the service did not confirm that ${job.kind} job ${remote.id} was cancelled` });
    } else if (typeof last?.creditsUsed === "number" && last.creditsUsed > spent && !saved) {
      // Credits the service billed for the job beyond its pages' own figures.
      store.recordCredits({ runId: ctx.runId, stepId: job.stepId, credits: last.creditsUsed - spent, reason: `${job.kind} job ${remote.id}: billed beyond its pages` });
      spent = last.creditsUsed;
    }
  } finally {
    ctx.budget.settle(worst, spent);
  }
  return tally;
}

/** Stores one page of the job with the credits the service billed for it (computed and marked estimated when absent). */
async function storePage(ctx: RunContext, job: RemoteJob, url: string, document: Document): Promise<number> {
  let creditsUsed = document.metadata.creditsUsed;
  if (typeof creditsUsed !== "number") {
    creditsUsed = ctx.ports.credits.forDocument(document, job.options);
    document.metadata.creditsUsed = creditsUsed;
    document.metadata["creditsEstimated"] = true;
  }
  await ctx.ports.store.saveDocument({ runId: ctx.runId, stepId: job.stepId, url, fetchedAt: new Date(ctx.clock()).toISOString(), creditsUsed, document });
  ctx.emit({ type: "document-stored", stepId: job.stepId, url, statusCode: document.metadata.statusCode, credits: creditsUsed, ...(document.metadata["creditsEstimated"] ? { estimated: true } : {}) });
  return creditsUsed;
}

function readState(raw: string | undefined): JobState | undefined {
  if (!raw) return undefined;
  try {
    const state = JSON.parse(raw) as Partial<JobState>;
    return typeof state.jobId === "string" ? { jobId: state.jobId, taken: Number(state.taken) || 0 } : undefined;
  } catch {
    return undefined;
  }
}

/** Tells the run of the long waits the service imposes on a step's job. */
function waitsOf(ctx: RunContext, stepId: string): OnEngineWait {
  return (wait) => ctx.emit({ type: "step-waiting", stepId, waitMs: wait.waitMs, reason: wait.reason });
}
