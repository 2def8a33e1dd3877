import type { Document, Step } from "../core/index.js";
import { isScrapelineError, ScrapelineError } from "../core/index.js";
import type { RunContext } from "./context.js";
import type { CrawlTally } from "./crawl-step.js";

type CrawlStep = Extract<Step, { kind: "crawl" }>;

/** Progress kept for --resume: the job, and how many of its pages were taken. */
interface JobState {
  jobId: string;
  taken: number;
}

const SAVE_EVERY = 10;

/**
 * A crawl run by the service: the job is started once (its id kept for --resume), its pages are
 * stored as the status pages list them, each once, and when the step is stopped (Ctrl-C or its
 * timeout) the job is cancelled on the service. Before starting, a crawl whose `limit` could
 * spend more than the budget has left does not start.
 */
export async function runRemoteCrawlStep(ctx: RunContext, step: CrawlStep, timeout: AbortSignal): Promise<CrawlTally & { remoteCancelled?: boolean }> {
  const { engine, store, credits } = ctx.ports;
  if (!engine.startCrawlJob) throw new ScrapelineError("unsupported", `the ${engine.name} engine cannot run crawl steps`);
  const options = step.body.scrapeOptions;
  const saved = readState(store.stepState(ctx.runId, step.id));
  const tally: CrawlTally & { remoteCancelled?: boolean } = { documents: 0, failures: 0, cancelled: false, found: 0, skippedByRobots: 0, skippedByRules: 0 };

  const worst = credits.estimatePage(options) * step.body.limit;
  if (!ctx.budget.reserve(worst)) {
    ctx.emit({ type: "budget-exhausted", spent: ctx.budget.total, limit: ctx.budget.limit ?? 0, needed: worst });
    ctx.halt(`a crawl of up to ${step.body.limit} pages could cost ${worst} credits, more than the budget of ${ctx.budget.limit} has left`);
    tally.cancelled = true;
    return tally;
  }
  const stop = AbortSignal.any([ctx.stop, timeout]);
  let spent = 0;
  try {
    const job = await engine.startCrawlJob(step.body, { signal: AbortSignal.any([timeout, ctx.abort]), ...(saved ? { jobId: saved.jobId } : {}) });
    let taken = saved?.taken ?? 0;
    const save = () => store.saveStepState(ctx.runId, step.id, JSON.stringify({ jobId: job.id, taken } satisfies JobState));
    save();
    ctx.emit({ type: "step-started", stepId: step.id, kind: step.kind });
    const stored = store.storedUrls(ctx.runId, step.id);
    try {
      for await (const document of job.pages(taken, stop)) {
        taken++;
        const url = document.metadata?.sourceURL || document.metadata?.url;
        if (url && !stored.has(url)) {
          stored.add(url);
          spent += storePage(ctx, step, url, document);
          tally.documents++;
        }
        if (taken % SAVE_EVERY === 0) save();
      }
    } catch (error) {
      if (!(stop.aborted && isScrapelineError(error, "cancelled"))) throw error;
    } finally {
      save();
    }
    const last = job.last;
    tally.found = last?.total ?? taken;
    if (last?.warning) ctx.emit({ type: "step-warning", stepId: step.id, message: last.warning });
    if (stop.aborted) {
      tally.cancelled = true;
      const confirmed = await job.cancel().catch(() => false);
      tally.remoteCancelled = confirmed;
      if (!confirmed) ctx.emit({ type: "step-warning", stepId: step.id, message: `the service did not confirm that crawl job ${job.id} was cancelled` });
    } else if (typeof last?.creditsUsed === "number" && last.creditsUsed > spent && !saved) {
      // Credits the service billed for the job beyond its pages' own figures.
      store.recordCredits({ runId: ctx.runId, stepId: step.id, credits: last.creditsUsed - spent, reason: `crawl job ${job.id}: billed beyond its pages` });
      spent = last.creditsUsed;
    }
  } finally {
    ctx.budget.settle(worst, spent);
  }
  return tally;
}

/** Stores one page of the job with the credits the service billed for it (computed and marked estimated when absent). */
function storePage(ctx: RunContext, step: CrawlStep, url: string, document: Document): number {
  const stepId = step.id;
  let creditsUsed = document.metadata.creditsUsed;
  if (typeof creditsUsed !== "number") {
    creditsUsed = ctx.ports.credits.forDocument(document, step.body.scrapeOptions);
    document.metadata.creditsUsed = creditsUsed;
    document.metadata["creditsEstimated"] = true;
  }
  ctx.ports.store.saveDocument({ runId: ctx.runId, stepId, url, fetchedAt: new Date(ctx.clock()).toISOString(), creditsUsed, document });
  ctx.emit({ type: "document-stored", stepId, url, statusCode: document.metadata.statusCode, credits: creditsUsed });
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
