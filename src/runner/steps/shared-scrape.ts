import type { CrawlFrontierPort } from "../../core/index.js";
import type { RunContext } from "../context.js";
import { runPage, type PageJob, type StepTally } from "../page.js";

/**
 * Scrapes the URLs of a scrape step that a frontier shared with other processes hands this one
 * (a serve batch job on PostgreSQL): each URL is claimed by one process at a time, fetched through
 * the run's pool and stored into the run and step whichever process fetched it. A URL the step
 * has stored already is marked done without a fetch. When no URL is left for this process, it
 * waits for those other processes hold (they may give them back) until none is queued or claimed.
 *
 * The process leading the step counts the step's failures from the store, so those other
 * processes recorded fail the step as its own would.
 */
export async function scrapeSharedUrls(ctx: RunContext, stepId: string, frontier: CrawlFrontierPort, job: (url: string) => PageJob, timeout: AbortSignal, tally: StepTally): Promise<void> {
  const stored = ctx.ports.store.storedUrls(ctx.runId, stepId);
  const inFlight = new Set<Promise<void>>();
  const maxInFlight = Math.max(2, ctx.plan.pipeline.concurrency * 2);
  while (!ctx.stop.aborted && !timeout.aborted) {
    const next = frontier.next();
    if (!next) {
      if (inFlight.size === 0 && (await frontier.shared?.more(AbortSignal.any([ctx.stop, timeout])))) continue;
      if (inFlight.size === 0) break;
      await Promise.race(inFlight);
      continue;
    }
    if (stored.has(next.url)) {
      frontier.done(next.url);
      continue;
    }
    const task: Promise<void> = runPage(ctx, job(next.url), timeout, tally).then((outcome) => {
      // A page the stop reached before it was stored stays claimed: it goes back to the queue when the frontier closes.
      if (outcome !== "cancelled") frontier.done(next.url);
    });
    inFlight.add(task);
    void task.finally(() => inFlight.delete(task));
    if (inFlight.size >= maxInFlight) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  if (ctx.stop.aborted || timeout.aborted) tally.cancelled = true;
  else if (frontier.shared?.leads) tally.failures = ctx.ports.store.failures(ctx.runId).filter((f) => f.stepId === stepId).length;
}
