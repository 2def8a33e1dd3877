import { asBody, readStep, refuseV2Only, warningOf, withV1Defaults } from "./requests.js";
import type { Document, Pipeline, SearchRequest, SearchResults, Step, Store, StoredSearchResult } from "../../core/index.js";
import { ScrapelineError } from "../../core/index.js";
import { inlineAssets } from "../common/index.js";

export interface SearchCall {
  request: SearchRequest;
  pipeline: Pipeline;
  warning?: string;
}

/** POST /v2/search: the body checked as a search step would be; errors are one 400 message. */
export function readSearchCall(raw: unknown, version: "v1" | "v2" = "v2"): SearchCall {
  const body: Record<string, unknown> = asBody(raw);
  if (version === "v1") {
    refuseV2Only(body.scrapeOptions);
    if (body.scrapeOptions !== undefined) withV1Defaults(body);
  }
  const { step, pipeline, warnings } = readStep("search", body, version);
  return { request: (step as Extract<Step, { kind: "search" }>).body, pipeline, ...warningOf(warnings) };
}

/** The service's answer to a search: results with each scraped result's Document merged in, as the service gives them. */
export function searchReply(store: Store, runId: number, stepId: string, id: string, creditsUsed: number, requestWarning?: string): { success: true; data: SearchResults; creditsUsed: number; id: string; warning?: string } {
  const raw = store.stepResult(runId, stepId);
  if (raw === undefined) throw new ScrapelineError("internal", "the search finished without results");
  const stored = JSON.parse(raw) as StoredSearchResult;
  const documents = new Map<string, Document>();
  for (const d of store.documents(runId, stepId)) documents.set(d.url, inlineAssets(d.document, store));
  const failed = new Map<string, { kind: string; error: string }>();
  for (const f of store.failures(runId)) if (f.stepId === stepId && !documents.has(f.url)) failed.set(f.url, f);
  const unscraped = new Set<string>();
  const merge = <T extends { url: string }>(items: T[] | undefined): T[] | undefined =>
    items?.map((item) => {
      const document = documents.get(item.url);
      if (document) return { ...document, ...item };
      const failure = failed.get(item.url);
      if (!failure) return item;
      unscraped.add(item.url);
      // As the service answers a result it could not scrape: the search result with the scrape's error.
      return { ...item, metadata: { sourceURL: item.url, url: item.url, statusCode: failureStatus(failure), error: failure.error } };
    });
  const data: SearchResults = {};
  const web = merge(stored.data.web);
  const news = merge(stored.data.news);
  if (web) data.web = web;
  if (news) data.news = news;
  if (stored.data.images) data.images = stored.data.images;
  const scraped = new Set([...(web ?? []), ...(news ?? [])].map((r) => r.url));
  const scrapeWarning = unscraped.size > 0 ? `${unscraped.size} of ${scraped.size} results could not be scraped: ${[...unscraped].map((url) => `${url} (${failed.get(url)!.error})`).join("; ")}` : undefined;
  const warning = [requestWarning, stored.warning, scrapeWarning].filter(Boolean).join("; ");
  return { success: true, data, creditsUsed, id, ...(warning ? { warning } : {}) };
}

/** The status a failed result scrape is answered with: the page's own when it gave one, 403 when it was refused, 408 when it timed out. */
function failureStatus(failure: { kind: string; error: string }): number {
  const own = /\bHTTP (\d{3})\b/.exec(failure.error);
  if (own) return Number(own[1]);
  return failure.kind === "blocked" ? 403 : failure.kind === "timeout" ? 408 : 500;
}
