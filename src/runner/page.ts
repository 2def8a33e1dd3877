import { setMaxListeners } from "node:events";
import type { ChangeTrackingFormat, Document, ErrorKind, KeptPage, RetryPolicy, ScrapeExtras, ScrapeOptions, SnapshotWrite } from "../core/index.js";
import { isScrapelineError, ScrapelineError } from "../core/index.js";
import { cacheKey, cacheMayHold, fromCache, mayReadCache, mayWriteCache, noteCached } from "./cache.js";
import type { RunContext } from "./context.js";
import type { RunEvent } from "./events.js";
import { PageDeadline } from "./page-deadline.js";
import { backoffMs, classify } from "./retry.js";
import { scrapeInSession, sessionPageOptions } from "./sessions/index.js";

/** A Retry-After longer than this fails the page as rate-limited rather than sleeping for hours. */
export const MAX_RATE_LIMIT_WAIT_MS = 10 * 60_000;
/** How many 429s one page may wait through before it counts as rate-limited. */
const MAX_RATE_LIMIT_WAITS = 20;

/** What a step's pages came to. */
export interface StepTally {
  documents: number;
  failures: number;
  cancelled: boolean;
}

/** One page to fetch for a step, with the step's retry policy and patience. */
export interface PageJob {
  stepId: string;
  url: string;
  /** What the engine is asked for. */
  options: ScrapeOptions;
  /** The options the page is billed by, when not `options` (an extract step's pages cost a plain scrape; the extraction is billed by its tokens). */
  billAs?: ScrapeOptions;
  retry: RetryPolicy;
  stepTimeoutMs?: number;
  /** Shapes the document before it is stored (an extract step drops the raw html it needed but nobody asked for). */
  toStored?: (document: Document) => Document;
  /** Ask the engine for every link of the whole page too (`pageLinks`, what a crawl follows); never stored. */
  pageLinks?: boolean;
  /** Fetched for its links only (a crawl's start URL that its include/exclude patterns refuse): not tracked, stored, billed or counted. */
  linksOnly?: true;
  /** `hidden`: a page the previous crawl found and this one did not, fetched to see whether it still answers. */
  visibility?: "visible" | "hidden";
  /** Load the page logged in with this session (from the pipeline's `sessions`). */
  session?: string;
  /** Keep the page open when it is loaded in the browser, handed to this (an interact step carries on from it). */
  keepOpen?: (page: KeptPage) => void;
  /** How the page is had instead of asking the engine to scrape `url` (an interact step carrying on from an open page). */
  fetch?: (options: ScrapeOptions, signal: AbortSignal) => Promise<Document>;
}

/** What a stored page leaves its step: where it ended up and the links it found (its content is in the store). */
export interface StoredPage {
  url: string;
  links: string[] | undefined;
}

/**
 * What became of a page: stored; failed for good (recorded as a failure); or cancelled — the step
 * or run stopped before the page was fetched, or while it was, so it is still to do on `--resume`.
 */
export type PageOutcome = StoredPage | "failed" | "cancelled";

type StoredEvent = Extract<RunEvent, { type: "document-stored" }>;

/**
 * Fetches one page through the run's pool, retrying by error class, and stores it in its own
 * transaction. Resolves once the page is committed (a store that commits on another thread
 * answers later; the page's content is not kept meanwhile), to "failed" when the page failed for
 * good, or to "cancelled" when the step stopped first (both recorded in `tally`).
 *
 * The page's `timeout` is its overall deadline, shared by its attempts and the backoff between
 * them; only waits a 429 asks for (which spend no attempt) extend it.
 */
export async function runPage(ctx: RunContext, job: PageJob, timeout: AbortSignal, tally: StepTally): Promise<PageOutcome> {
  const url = job.url;
  const options = job.session === undefined ? job.options : sessionPageOptions(job.options);
  const step = { id: job.stepId, retry: job.retry };
  const host = hostOf(url);
  const patienceEnd = job.stepTimeoutMs === undefined ? Infinity : ctx.clock() + job.stepTimeoutMs;
  const deadline = new PageDeadline(options.timeout);
  let attempt = 1;
  let waits = 0;
  let notBefore = 0;
  for (;;) {
    if (ctx.stop.aborted || timeout.aborted) {
      tally.cancelled = true;
      return "cancelled";
    }
    const estimate = ctx.ports.credits.estimatePage(job.billAs ?? options);
    let stored: { page: StoredPage; event: StoredEvent | undefined; committed: void | Promise<void> };
    try {
      stored = await ctx.pool.run(
        host,
        async () => {
          if (ctx.stop.aborted || timeout.aborted) throw new ScrapelineError("cancelled", "not started: the step stopped");
          if (!ctx.budget.reserve(estimate)) {
            budgetExhausted(ctx, estimate);
            throw new ScrapelineError("budget", "budget exhausted");
          }
          try {
            const tracking = localTracking(ctx, options);
            const engineOptions = deadline.shape(tracking ? forEngine(options, tracking) : options, ctx.clock());
            const { page, cacheKey } = job.fetch ? { page: await job.fetch(engineOptions, pageSignal(ctx, timeout)), cacheKey: undefined } : await fetchOrCache(ctx, url, options, engineOptions, pageSignal(ctx, timeout), job);
            if (job.linksOnly) {
              ctx.budget.settle(estimate, 0);
              return { page: { url: page.metadata.url || url, links: page.pageLinks ?? page.links }, event: undefined, committed: undefined };
            }
            const snapshot = tracking ? trackChange(ctx, url, page, tracking, job.visibility ?? "visible") : undefined;
            if (tracking && !options.formats.some((f) => f.type === "json")) delete page.json;
            const credits = creditsOf(ctx, page, job.billAs ?? options);
            page.metadata.creditsUsed = credits;
            const document = withoutPageLinks(job.toStored ? job.toStored(page) : page);
            const cache = cacheKey === undefined ? undefined : { optionsKey: cacheKey, document: page };
            if (cache) noteCached(ctx, cache.optionsKey, url);
            const committed = ctx.ports.store.saveDocument({ runId: ctx.runId, stepId: step.id, url, fetchedAt: new Date(ctx.clock()).toISOString(), creditsUsed: credits, document }, snapshot, cache);
            ctx.budget.settle(estimate, credits);
            const { metadata } = page;
            const event: StoredEvent = { type: "document-stored", stepId: step.id, url, statusCode: metadata.statusCode, credits, ...(metadata["creditsEstimated"] ? { estimated: true } : {}), ...(page.warning ? { warning: page.warning } : {}) };
            return { page: { url: metadata.url || url, links: page.pageLinks ?? page.links }, event, committed };
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
        return "cancelled";
      }
      const verdict = classify(error);
      const now = ctx.clock();
      if (verdict.action === "wait" && waits < MAX_RATE_LIMIT_WAITS) {
        const waitMs = verdict.waitMs >= 0 ? verdict.waitMs : backoffMs(step.retry, attempt, ctx.random);
        if (waitMs <= MAX_RATE_LIMIT_WAIT_MS && now + waitMs <= patienceEnd) {
          waits++;
          deadline.extend(waitMs);
          ctx.pool.pauseHost(host, now + waitMs);
          notBefore = now + waitMs;
          ctx.emit({ type: "document-retried", stepId: step.id, url, attempt, delayMs: waitMs, reason: `rate limited: ${verdict.reason}` });
          continue;
        }
        return fail(ctx, step.id, url, tally, "rate-limited", `rate limited and asked to wait ${Math.round(waitMs / 1000)} s, longer than this step can wait: ${verdict.reason}`);
      }
      if (verdict.action === "retry" && attempt < step.retry.attempts) {
        const delayMs = backoffMs(step.retry, attempt, ctx.random);
        if (!deadline.allowsRetryAt(now + delayMs)) {
          return fail(ctx, step.id, url, tally, isScrapelineError(error) ? error.kind : "unknown", `${verdict.reason} (after ${attempt} attempt${attempt === 1 ? "" : "s"}; the page's timeout of ${options.timeout} ms leaves no time for another)`);
        }
        ctx.emit({ type: "document-retried", stepId: step.id, url, attempt, delayMs, reason: verdict.reason });
        attempt++;
        notBefore = now + delayMs;
        continue;
      }
      const kind: ErrorKind | "unknown" = isScrapelineError(error) ? error.kind : "unknown";
      const reason = verdict.action === "retry" ? `${verdict.reason} (after ${attempt} attempt${attempt === 1 ? "" : "s"})` : verdict.reason;
      return fail(ctx, step.id, url, tally, kind, reason);
    }
    // A store that commits on another thread: the page counts as stored once it is committed (outside the pool, so fetching goes on).
    if (stored.committed) {
      try {
        await stored.committed;
      } catch (error) {
        return fail(ctx, step.id, url, tally, "unknown", `could not store the page: ${(error as Error).message}`);
      }
    }
    if (!stored.event) return stored.page;
    tally.documents++;
    ctx.emit(stored.event);
    return stored.page;
  }
}

/** The signal each step's pages are fetched under, by the step's timeout signal: made once per step, not per page. */
const pageSignals = new WeakMap<AbortSignal, { abort: AbortSignal; signal: AbortSignal }>();

/** Aborts when the step's time is up or the run is aborted. */
function pageSignal(ctx: RunContext, timeout: AbortSignal): AbortSignal {
  const known = pageSignals.get(timeout);
  if (known?.abort === ctx.abort) return known.signal;
  const signal = AbortSignal.any([timeout, ctx.abort]);
  // Every page under way listens to it (one listener each), so the step's concurrency is no leak.
  setMaxListeners(0, signal);
  pageSignals.set(timeout, { abort: ctx.abort, signal });
  return signal;
}

/** The change-tracking format when the runner (not the engine) must compare the page. */
export function localTracking(ctx: RunContext, options: ScrapeOptions): ChangeTrackingFormat | undefined {
  if (ctx.ports.engine.tracksChanges) return undefined;
  return options.formats.find((f): f is ChangeTrackingFormat => f.type === "changeTracking");
}

/**
 * The options the engine sees when the runner tracks changes: without the changeTracking format,
 * and, in json mode, with a json format of the tracking schema so the page's data is extracted.
 */
export function forEngine(options: ScrapeOptions, tracking: ChangeTrackingFormat): ScrapeOptions {
  const formats = options.formats.filter((f) => f.type !== "changeTracking");
  if (tracking.modes.includes("json") && !formats.some((f) => f.type === "json")) {
    formats.push({ type: "json", ...(tracking.schema ? { schema: tracking.schema } : {}), ...(tracking.prompt ? { prompt: tracking.prompt } : {}) });
  }
  return { ...options, formats };
}

/** Compares the page with its previous snapshot; sets `changeTracking` and returns the snapshot to store with it. */
export function trackChange(ctx: RunContext, url: string, page: Document, format: ChangeTrackingFormat, visibility: "visible" | "hidden"): SnapshotWrite {
  const tracker = ctx.ports.changes;
  if (!tracker) throw new ScrapelineError("unsupported", "change tracking needs the run's store", { url });
  const extracted = format.modes.includes("json") ? page.json : undefined;
  const tracked = tracker.track({ url, tag: format.tag, markdown: page.markdown ?? "", statusCode: page.metadata.statusCode, modes: format.modes, visibility, ...(extracted !== undefined ? { extracted } : {}) });
  page.changeTracking = tracked.result;
  return tracked.snapshot;
}

/**
 * The page from the cache when maxAge allows, else from the engine, with the cache key to store it
 * under when it may be cached (it is, with the page, in the page's transaction).
 */
async function fetchOrCache(ctx: RunContext, url: string, options: ScrapeOptions, engineOptions: ScrapeOptions, signal: AbortSignal, job: PageJob): Promise<{ page: Document; cacheKey?: string }> {
  const store = ctx.ports.store;
  const key = cacheKey(options);
  const local = !ctx.ports.engine.reportsCredits; // a remote service keeps (and bills) its own cache
  const pageLinks = job.pageLinks === true;
  // A cached page has no open page behind it: an interact step loads it afresh, which for a page
  // the cache may answer (no actions, no waitFor) is the page as the scrape had it.
  if (local && mayReadCache(options) && cacheMayHold(ctx, key, url)) {
    const cached = store.cacheGet(url, key, options.maxAge);
    // A crawl needs the page's links: an entry cached without them (by a scrape) does not answer it.
    if (cached && (!pageLinks || cached.document.pageLinks)) {
      // The cache holds pages others fetched: a page this request's threat protection refuses is refused here too
      // (a page fetched instead meets it in the engine).
      if (options.threatProtection) ctx.ports.engine.checkTarget?.(url, options);
      return { page: fromCache(cached.document, cached.cachedAt) };
    }
  }
  const extras: ScrapeExtras = { ...(pageLinks ? { pageLinks: true } : {}), ...(job.keepOpen ? { keepOpen: job.keepOpen } : {}) };
  const page = job.session === undefined ? await ctx.ports.engine.scrape(url, engineOptions, signal, extras) : await scrapeInSession(ctx, job.session, url, engineOptions, signal, extras);
  // Only a page the cache was asked for is a miss; one it may not answer (headers, actions, waitFor, change tracking) has no cacheState.
  if (local && mayReadCache(options)) page.metadata.cacheState = "miss";
  return local && mayWriteCache(options) ? { page, cacheKey: key } : { page };
}

/** What a page cost: the service's own figure when the engine reports one, else the billing rules (marked estimated for such engines). */
function creditsOf(ctx: RunContext, page: Document, options: ScrapeOptions): number {
  const reported = page.metadata.creditsUsed;
  if (ctx.ports.engine.reportsCredits && typeof reported === "number") return reported;
  if (ctx.ports.engine.reportsCredits) page.metadata["creditsEstimated"] = true;
  return ctx.ports.credits.forDocument(page, options);
}

/** The page as stored and answered: `pageLinks` stay in the page cache only. */
function withoutPageLinks(page: Document): Document {
  if (page.pageLinks === undefined) return page;
  const { pageLinks: _pageLinks, ...stored } = page;
  return stored;
}

function fail(ctx: RunContext, stepId: string, url: string, tally: StepTally, kind: ErrorKind | "unknown", reason: string): "failed" {
  tally.failures++;
  ctx.ports.store.saveFailure({ runId: ctx.runId, stepId, url, kind, error: reason });
  ctx.emit({ type: "document-failed", stepId, url, kind, reason });
  return "failed";
}

function budgetExhausted(ctx: RunContext, needed: number): void {
  if (ctx.stop.aborted) return;
  // Called from a pool slot that will not fetch: the others running are the pages in flight.
  ctx.emit({ type: "budget-exhausted", spent: ctx.budget.total, limit: ctx.budget.limit ?? 0, needed, inFlight: Math.max(0, ctx.pool.running - 1) });
  ctx.halt(`budget of ${ctx.budget.limit} credits reached`);
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
