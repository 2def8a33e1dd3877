import { asBody, readStep, refuseV2Only, warningOf, withV1Defaults } from "./serve-requests.js";
import type { Document, Pipeline, SearchRequest, SearchResults, Step, Store, StoredSearchResult } from "../core/index.js";
import { ScrapelineError } from "../core/index.js";
import { inlineAssets } from "./assets.js";

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
  const merge = <T extends { url: string }>(items: T[] | undefined): T[] | undefined => items?.map((item) => (documents.has(item.url) ? { ...documents.get(item.url)!, ...item } : item));
  const data: SearchResults = {};
  const web = merge(stored.data.web);
  const news = merge(stored.data.news);
  if (web) data.web = web;
  if (news) data.news = news;
  if (stored.data.images) data.images = stored.data.images;
  const warning = [requestWarning, stored.warning].filter(Boolean).join("; ");
  return { success: true, data, creditsUsed, id, ...(warning ? { warning } : {}) };
}
