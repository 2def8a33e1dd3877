import type { Document, Step } from "../../core/index.js";
import { searchResultUrls } from "../../core/index.js";
import type { RunContext } from "../context.js";
import { runPage, type PageJob, type StepTally } from "../page.js";
import { runRemoteBatchStep } from "./remote-job.js";
import { selectUrls } from "../url-source.js";
import { pipelineScrapeId } from "./scrape-id.js";
import { pageKeeper } from "../sessions/index.js";
import { scrapeSharedUrls } from "./shared-scrape.js";

type ScrapeStep = Extract<Step, { kind: "scrape" }>;

/**
 * Scrapes every URL of a scrape step through the run's pool, storing each page as it finishes;
 * with `ports.sharedUrls`, the URLs this process claims from a frontier other processes share.
 */
export async function runScrapeStep(ctx: RunContext, step: ScrapeStep, timeout: AbortSignal): Promise<StepTally> {
  // Each page once (a file is checked for repeats; a request built in code may still hold one).
  const urls = Array.isArray(step.body.urls) ? [...new Set(step.body.urls)] : selectUrls(urlsFromStep(ctx, step.body.urls.from), step.body.urls);
  // On the service, several URLs are one batch job rather than one request each.
  if (ctx.ports.engine.startBatchJob && urls.length > 1) return runRemoteBatchStep(ctx, step, urls, timeout);
  const done = ctx.ports.store.storedUrls(ctx.runId, step.id);
  const todo = urls.filter((u) => !done.has(u));
  ctx.emit({ type: "step-started", stepId: step.id, kind: step.kind, total: urls.length });
  const tally: StepTally = { documents: 0, failures: 0, cancelled: false };
  // Pages an interact step carries on from stay open in the browser (the engine keeps those it loads in one).
  const keeping = (url: string): Pick<PageJob, "keepOpen"> => {
    const keepOpen = ctx.ports.engine.keepsPages ? pageKeeper(ctx, step.id, url) : undefined;
    return keepOpen ? { keepOpen } : {};
  };
  const job = (url: string): PageJob => ({
    stepId: step.id,
    url,
    options: step.body,
    retry: step.retry,
    ...(step.session !== undefined ? { session: step.session } : {}),
    ...(step.timeoutMs !== undefined ? { stepTimeoutMs: step.timeoutMs } : {}),
    toStored: (document) => withScrapeId(document, pipelineScrapeId(ctx.plan.pipeline.name, step.id, url)),
    ...keeping(url),
  });
  const shared = ctx.ports.sharedUrls?.(step.id, urls);
  if (shared) await scrapeSharedUrls(ctx, step.id, shared, job, timeout, tally);
  else await Promise.all(todo.map((url) => runPage(ctx, job(url), timeout, tally)));
  return tally;
}

/** URLs an earlier step of this run produced: links of scraped pages, pages of a crawl. */
export function* urlsFromStep(ctx: RunContext, stepId: string): Iterable<string> {
  const source = ctx.plan.pipeline.steps.find((s) => s.id === stepId);
  if (source?.kind === "search") return yield* searchedUrls(ctx, stepId);
  for (const stored of ctx.ports.store.documents(ctx.runId, stepId)) {
    if (source?.kind === "scrape" || source?.kind === "map") yield* stored.document.links ?? [];
    else yield stored.url;
  }
}

/** The result URLs of a search step (web, news, images, each in position order). */
function searchedUrls(ctx: RunContext, stepId: string): string[] {
  const raw = ctx.ports.store.stepResult(ctx.runId, stepId);
  return raw === undefined ? [] : searchResultUrls((JSON.parse(raw) as { data: Parameters<typeof searchResultUrls>[0] }).data);
}

/** The page as stored, with its scrapeId (a service's own id, when the engine gave one, is kept). */
function withScrapeId(document: Document, scrapeId: string): Document {
  if (document.metadata.scrapeId !== undefined) return document;
  return { ...document, metadata: { ...document.metadata, scrapeId } };
}
