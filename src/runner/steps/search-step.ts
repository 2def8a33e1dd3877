import type { Document, SearchAnswer, SearchResults, Step, StoredSearchResult } from "../../core/index.js";
import { ScrapelineError, searchCredits, searchResultUrls } from "../../core/index.js";
import type { RunContext } from "../context.js";
import { runPage, type StepTally } from "../page.js";
import { backoffMs, classify } from "../retry.js";
import { compareSearchResults, readResult } from "./search-changes.js";

type SearchStep = Extract<Step, { kind: "search" }>;

/**
 * Runs a search and stores its results as the step's result, shaped like the service's answer
 * (`export --step` writes it; `urls: {from}` takes its URLs), with how they moved since the last
 * run of the step. Results are scraped only when the step's scrapeOptions ask for formats: on the
 * local engine each through the run's pool (billed as a scrape), on the service by the service.
 * A resumed step keeps the results it already has and scrapes the ones still missing.
 */
export async function runSearchStep(ctx: RunContext, step: SearchStep, timeout: AbortSignal): Promise<StepTally> {
  const { engine, store } = ctx.ports;
  if (!engine.search) throw new ScrapelineError("unsupported", `the ${engine.name} engine cannot run search steps`);
  ctx.emit({ type: "step-started", stepId: step.id, kind: step.kind, ...(step.body.scrapeOptions ? {} : { total: 1 }) });
  const tally: StepTally = { documents: 0, failures: 0, cancelled: false };
  let result = readResult(store.stepResult(ctx.runId, step.id));
  if (!result) {
    const searched = await search(ctx, step, timeout, tally);
    if (!searched) return tally;
    result = searched;
  }
  const options = step.body.scrapeOptions;
  if (!options || engine.reportsCredits) return tally;
  const done = store.storedUrls(ctx.runId, step.id);
  // As the service does: web and news results are scraped; images are pictures, not pages.
  const urls = searchResultUrls({ ...(result.data.web ? { web: result.data.web } : {}), ...(result.data.news ? { news: result.data.news } : {}) }).filter((u) => !done.has(u));
  let pageCredits = 0;
  const pages = urls.map(async (url) => {
    const outcome = await runPage(ctx, { stepId: step.id, url, options, retry: step.retry, ...(step.timeoutMs !== undefined ? { stepTimeoutMs: step.timeoutMs } : {}) }, timeout, tally);
    if (typeof outcome === "object") pageCredits += creditsOf(ctx, step.id, url);
  });
  await Promise.all(pages);
  if (pageCredits > 0) store.saveStepResult(ctx.runId, step.id, JSON.stringify({ ...result, creditsUsed: result.creditsUsed + pageCredits }));
  return tally;
}

/** The search itself: budget reserved for `limit` results of each source, the answer stored with its credits. */
async function search(ctx: RunContext, step: SearchStep, timeout: AbortSignal, tally: StepTally): Promise<StoredSearchResult | undefined> {
  const { engine, store } = ctx.ports;
  const body = step.body;
  const estimate = searchCredits(body.limit * body.sources.length);
  if (!ctx.budget.reserve(estimate)) {
    ctx.emit({ type: "budget-exhausted", spent: ctx.budget.total, limit: ctx.budget.limit ?? 0, needed: estimate });
    ctx.halt(`budget of ${ctx.budget.limit} credits reached`);
    tally.cancelled = true;
    return undefined;
  }
  let answer: SearchAnswer;
  try {
    answer = await searchWithRetries(ctx, step, timeout);
  } catch (error) {
    ctx.budget.settle(estimate, 0);
    // Kept with its kind, so a caller (serve) answers a timeout as one; the step fails with the message.
    const kind = error instanceof ScrapelineError ? error.kind : "internal";
    if (kind !== "cancelled") store.saveFailure({ runId: ctx.runId, stepId: step.id, url: `search: ${body.query}`, kind, error: error instanceof Error ? error.message : String(error) });
    throw error;
  }
  const data = body.ignoreInvalidURLs ? validOnly(answer.data) : answer.data;
  const total = (data.web?.length ?? 0) + (data.news?.length ?? 0) + (data.images?.length ?? 0);
  const scrapedCredits = (answer.scraped ?? []).reduce((sum, s) => sum + (Number(s.document.metadata?.creditsUsed) || 0), 0);
  const credits = answer.creditsUsed !== undefined ? Math.max(0, answer.creditsUsed - scrapedCredits) : searchCredits(total);
  ctx.budget.settle(estimate, credits);
  if (credits > 0) store.recordCredits({ runId: ctx.runId, stepId: step.id, credits, reason: `search: ${total} result(s)` });
  for (const message of answer.warnings) ctx.emit({ type: "step-warning", stepId: step.id, message });
  const changes = compareSearchResults(store, ctx.plan.pipeline.name, step.id, ctx.runId, body.query, data);
  const result: StoredSearchResult = {
    success: true,
    data,
    creditsUsed: credits + scrapedCredits,
    ...(answer.warnings.length ? { warning: answer.warnings.join("; ") } : {}),
    changes,
  };
  store.saveStepResult(ctx.runId, step.id, JSON.stringify(result));
  for (const { url, document } of answer.scraped ?? []) await storeScraped(ctx, step.id, url, document, tally);
  return result;
}

/**
 * The engine's search, tried again by the step's retry policy when the search engine could not be
 * reached or answered a 5xx (not after the search's own timeout, which covers all its pages).
 */
async function searchWithRetries(ctx: RunContext, step: SearchStep, timeout: AbortSignal): Promise<SearchAnswer> {
  const signal = AbortSignal.any([timeout, ctx.abort]);
  for (let attempt = 1; ; attempt++) {
    try {
      return await ctx.ports.engine.search!(step.body, { signal, onWait: (wait) => ctx.emit({ type: "step-waiting", stepId: step.id, waitMs: wait.waitMs, reason: wait.reason }) });
    } catch (error) {
      const verdict = classify(error);
      const retryable = verdict.action === "retry" && !(error instanceof ScrapelineError && error.kind === "timeout");
      if (!retryable || attempt >= step.retry.attempts || signal.aborted) throw error;
      const delayMs = backoffMs(step.retry, attempt, ctx.random);
      ctx.emit({ type: "document-retried", stepId: step.id, url: `search: ${step.body.query}`, attempt: attempt + 1, delayMs, reason: verdict.reason });
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
}

/** A result the service scraped, stored like any page (its credits as the service reported them). */
async function storeScraped(ctx: RunContext, stepId: string, url: string, document: Document, tally: StepTally): Promise<void> {
  const creditsUsed = Number(document.metadata?.creditsUsed) || 0;
  await ctx.ports.store.saveDocument({ runId: ctx.runId, stepId, url, fetchedAt: new Date(ctx.clock()).toISOString(), creditsUsed, document });
  tally.documents++;
  ctx.emit({ type: "document-stored", stepId, url, statusCode: Number(document.metadata?.statusCode) || 200, credits: creditsUsed, ...(document.warning ? { warning: document.warning } : {}) });
}

function creditsOf(ctx: RunContext, stepId: string, url: string): number {
  for (const stored of ctx.ports.store.documents(ctx.runId, stepId, new Set([url]))) return stored.creditsUsed;
  return 0;
}

/** Results whose URL could not be scraped (not http or https) left out, positions kept. */
function validOnly(data: SearchResults): SearchResults {
  const ok = (url: string) => /^https?:\/\/[^/\s]+/i.test(url);
  return {
    ...(data.web ? { web: data.web.filter((r) => ok(r.url)) } : {}),
    ...(data.news ? { news: data.news.filter((r) => ok(r.url)) } : {}),
    ...(data.images ? { images: data.images.filter((r) => ok(r.url)) } : {}),
  };
}
