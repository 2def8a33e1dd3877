import type { Document, ErrorKind, ScrapeOptions, Step } from "../core/index.js";
import { isScrapelineError, ScrapelineError } from "../core/index.js";
import { cacheKey, fromCache, mayReadCache, mayWriteCache } from "./cache.js";
import { backoffMs, classify } from "./retry.js";
import type { RunContext } from "./context.js";
import { selectUrls } from "./url-source.js";

type ScrapeStep = Extract<Step, { kind: "scrape" }>;

/** A Retry-After longer than this fails the page as rate-limited rather than sleeping for hours. */
export const MAX_RATE_LIMIT_WAIT_MS = 10 * 60_000;
/** How many 429s one page may wait through before it counts as rate-limited. */
const MAX_RATE_LIMIT_WAITS = 20;

export interface StepTally {
  documents: number;
  failures: number;
  cancelled: boolean;
}

/** Scrapes every URL of a scrape step through the run's pool, storing each page as it finishes. */
export async function runScrapeStep(ctx: RunContext, step: ScrapeStep, timeout: AbortSignal): Promise<StepTally> {
  const urls = Array.isArray(step.body.urls) ? step.body.urls : selectUrls(urlsFromStep(ctx, step.body.urls.from), step.body.urls);
  const done = ctx.ports.store.storedUrls(ctx.runId, step.id);
  const todo = urls.filter((u) => !done.has(u));
  ctx.emit({ type: "step-started", stepId: step.id, kind: step.kind, total: urls.length });
  const tally: StepTally = { documents: 0, failures: 0, cancelled: false };
  await Promise.all(todo.map((url) => scrapePage(ctx, step, url, timeout, tally)));
  return tally;
}

/** URLs an earlier step of this run produced: links of scraped pages, pages of a crawl. */
function* urlsFromStep(ctx: RunContext, stepId: string): Iterable<string> {
  const source = ctx.plan.pipeline.steps.find((s) => s.id === stepId);
  for (const stored of ctx.ports.store.documents(ctx.runId, stepId)) {
    if (source?.kind === "scrape") yield* stored.document.links ?? [];
    else yield stored.url;
  }
}

async function scrapePage(ctx: RunContext, step: ScrapeStep, url: string, timeout: AbortSignal, tally: StepTally): Promise<void> {
  const options: ScrapeOptions = step.body;
  const host = hostOf(url);
  const patienceEnd = step.timeoutMs === undefined ? Infinity : ctx.clock() + step.timeoutMs;
  let attempt = 1;
  let waits = 0;
  let notBefore = 0;
  for (;;) {
    if (ctx.stop.aborted || timeout.aborted) {
      tally.cancelled = true;
      return;
    }
    const estimate = ctx.ports.credits.estimatePage(options);
    let document: Document;
    try {
      document = await ctx.pool.run(
        host,
        async () => {
          if (ctx.stop.aborted || timeout.aborted) throw new ScrapelineError("cancelled", "not started: the step stopped");
          if (!ctx.budget.reserve(estimate)) {
            budgetExhausted(ctx, estimate);
            throw new ScrapelineError("budget", "budget exhausted");
          }
          try {
            const page = await fetchOrCache(ctx, url, options, AbortSignal.any([timeout, ctx.abort]));
            const credits = ctx.ports.credits.forDocument(page, options);
            page.metadata.creditsUsed = credits;
            ctx.ports.store.saveDocument({ runId: ctx.runId, stepId: step.id, url, fetchedAt: new Date(ctx.clock()).toISOString(), creditsUsed: credits, document: page });
            ctx.budget.settle(estimate, credits);
            return page;
          } catch (error) {
            ctx.budget.settle(estimate, 0);
            throw error;
          }
        },
        notBefore,
      );
    } catch (error) {
      if (isScrapelineError(error, "cancelled") || isScrapelineError(error, "budget") || ((ctx.stop.aborted || timeout.aborted || ctx.abort.aborted) && !isScrapelineError(error))) {
        tally.cancelled = true;
        return;
      }
      const verdict = classify(error);
      const now = ctx.clock();
      if (verdict.action === "wait" && waits < MAX_RATE_LIMIT_WAITS) {
        const waitMs = verdict.waitMs >= 0 ? verdict.waitMs : backoffMs(step.retry, attempt, ctx.random);
        if (waitMs <= MAX_RATE_LIMIT_WAIT_MS && now + waitMs <= patienceEnd) {
          waits++;
          ctx.pool.pauseHost(host, now + waitMs);
          notBefore = now + waitMs;
          ctx.emit({ type: "document-retried", stepId: step.id, url, attempt, delayMs: waitMs, reason: `rate limited: ${verdict.reason}` });
          continue;
        }
        return fail(ctx, step, url, tally, "rate-limited", `rate limited and asked to wait ${Math.round(waitMs / 1000)} s, longer than this step can wait: ${verdict.reason}`);
      }
      if (verdict.action === "retry" && attempt < step.retry.attempts) {
        const delayMs = backoffMs(step.retry, attempt, ctx.random);
        ctx.emit({ type: "document-retried", stepId: step.id, url, attempt, delayMs, reason: verdict.reason });
        attempt++;
        notBefore = now + delayMs;
        continue;
      }
      const kind: ErrorKind | "unknown" = isScrapelineError(error) ? error.kind : "unknown";
      const reason = verdict.action === "retry" ? `${verdict.reason} (after ${attempt} attempt${attempt === 1 ? "" : "s"})` : verdict.reason;
      return fail(ctx, step, url, tally, kind, reason);
    }
    tally.documents++;
    ctx.emit({ type: "document-stored", stepId: step.id, url, statusCode: document.metadata.statusCode, credits: document.metadata.creditsUsed ?? 0 });
    return;
  }
}

/** The page from the cache when maxAge allows, else from the engine (then cached if allowed). */
async function fetchOrCache(ctx: RunContext, url: string, options: ScrapeOptions, signal: AbortSignal): Promise<Document> {
  const store = ctx.ports.store;
  const key = cacheKey(options);
  if (mayReadCache(options)) {
    const cached = store.cacheGet(url, key, options.maxAge);
    if (cached) return fromCache(cached.document, cached.cachedAt);
  }
  const page = await ctx.ports.engine.scrape(url, options, signal);
  if (options.maxAge > 0) page.metadata.cacheState = "miss";
  if (mayWriteCache(options)) store.cachePut(url, key, page);
  return page;
}

function fail(ctx: RunContext, step: ScrapeStep, url: string, tally: StepTally, kind: ErrorKind | "unknown", reason: string): void {
  tally.failures++;
  ctx.ports.store.saveFailure({ runId: ctx.runId, stepId: step.id, url, kind, error: reason });
  ctx.emit({ type: "document-failed", stepId: step.id, url, kind, reason });
}

function budgetExhausted(ctx: RunContext, needed: number): void {
  if (ctx.stop.aborted) return;
  ctx.emit({ type: "budget-exhausted", spent: ctx.budget.total, limit: ctx.budget.limit ?? 0, needed });
  ctx.halt(`budget of ${ctx.budget.limit} credits reached`);
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
