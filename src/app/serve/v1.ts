import type { Document, MapLink, SearchResults, Team } from "../../core/index.js";
import { ScrapelineError } from "../../core/index.js";
import { TOKENS_PER_CREDIT } from "../../credits/index.js";
import type { JobStatusPage } from "./job-status.js";
import type { TokenUsage } from "./usage.js";

/**
 * The v1 API of `scrapeline serve`: v1 request bodies taken to what the v2 use cases read (the
 * pipeline language maps v1's forms and serve applies v1's defaults), and their answers given in
 * v1's shapes. Only what v1 names differently than the pipeline language is translated here.
 */

type Body = Record<string, unknown>;

/** The v2 use cases the v1 endpoints run on. */
export interface V2Service {
  scrape(team: Team, body: unknown, version: "v1"): Promise<Document>;
  map(team: Team, body: unknown, version: "v1"): Promise<{ links: MapLink[]; warning?: string }>;
  search(team: Team, body: unknown, version: "v1"): Promise<{ data: SearchResults; warning?: string }>;
  startCrawl(team: Team, body: unknown, version: "v1"): { id: string; warning?: string };
  startBatch(team: Team, body: unknown, version: "v1"): { id: string; invalidURLs?: string[]; warning?: string };
  startExtract(team: Team, body: unknown, version: "v1"): { id: string; invalidURLs?: string[]; warning?: string };
  jobStatus(team: Team, kind: "crawl" | "batch", id: string, page?: { skip?: number; limit?: number }): JobStatusPage;
  tokenUsage(team: Team, scope?: "all" | "extract"): TokenUsage;
}

const bad = (message: string) => new ScrapelineError("invalid-input", `Bad request: ${message}`);

function asObject(raw: unknown): Body {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) throw bad("the body must be a JSON object");
  return { ...(raw as Body) };
}

/**
 * Scrape options written the v1 way that the pipeline language names otherwise: the `extract`
 * options (v1's first name of jsonOptions), proxy stealth (now enhanced), zeroDataRetention
 * (false is what this server does anyway). The FIRE-1 `agent` has no v1 form here.
 */
function v1ScrapeOptions(options: Body): Body {
  const out = { ...options };
  if (out.extract !== undefined) {
    if (out.jsonOptions !== undefined) throw bad("extract and jsonOptions are the same options; give one of them");
    out.jsonOptions = out.extract;
    delete out.extract;
  }
  if (out.proxy === "stealth") out.proxy = "enhanced";
  if (out.zeroDataRetention === false) delete out.zeroDataRetention;
  else if (out.zeroDataRetention !== undefined) throw bad("zeroDataRetention is not offered by this server (it keeps results in its database); leave it out");
  if (out.agent !== undefined) throw bad("agent (FIRE-1) is not offered on v1; use POST /v2/agent");
  return out;
}

function nestedOptions(body: Body): Body {
  if (body.scrapeOptions !== null && typeof body.scrapeOptions === "object" && !Array.isArray(body.scrapeOptions)) return { ...body, scrapeOptions: v1ScrapeOptions(body.scrapeOptions as Body) };
  return body;
}

/** Whether a v1 request named json's output `extract` (format extract without json): its answers use that name. */
function namesExtract(options: Body | undefined): boolean {
  const formats = options?.formats;
  return Array.isArray(formats) && formats.includes("extract") && !formats.includes("json");
}

/** A document as v1 gives it: json's output under `extract` when the request asked for format extract. */
export function v1Document(document: Document, extractName: boolean): Record<string, unknown> {
  if (!extractName || !("json" in document)) return document as unknown as Record<string, unknown>;
  const { json, ...rest } = document;
  return { ...rest, extract: json };
}

/** Jobs started on v1 whose documents carry `extract` (kept while the server runs). */
const EXTRACT_NAMED = new Set<string>();
const EXTRACT_NAMED_MAX = 10_000;

function rememberExtractName(id: string): void {
  EXTRACT_NAMED.add(id);
  if (EXTRACT_NAMED.size > EXTRACT_NAMED_MAX) EXTRACT_NAMED.delete(EXTRACT_NAMED.values().next().value!);
}

/** POST /v1/scrape: the document, with v1's names. */
export async function scrapeV1(service: V2Service, team: Team, raw: unknown): Promise<Record<string, unknown>> {
  const body = v1ScrapeOptions(asObject(raw));
  return v1Document(await service.scrape(team, body, "v1"), namesExtract(body));
}

/** POST /v1/batch/scrape: the scrape options at the top level, like v2; invalid URLs fail it unless ignoreInvalidURLs. */
export function startBatchV1(service: V2Service, team: Team, raw: unknown): { id: string; invalidURLs?: string[]; warning?: string } {
  const body = v1ScrapeOptions(asObject(raw));
  const started = service.startBatch(team, body, "v1");
  if (namesExtract(body)) rememberExtractName(started.id);
  return started;
}

/** POST /v1/crawl: maxDepth, allowBackwardLinks/allowBackwardCrawling and ignoreSitemap mapped by the pipeline language. */
export function startCrawlV1(service: V2Service, team: Team, raw: unknown): { id: string; warning?: string } {
  const body = nestedOptions(asObject(raw));
  if (body.zeroDataRetention === false) delete body.zeroDataRetention;
  const started = service.startCrawl(team, body, "v1");
  if (namesExtract(body.scrapeOptions as Body | undefined)) rememberExtractName(started.id);
  return started;
}

/** GET /v1/crawl/{id}: a crawl's or a batch scrape's status page (v1 polls batches here too), with v1's document names. */
export function jobStatusV1(service: V2Service, team: Team, id: string, page: { skip?: number; limit?: number }): JobStatusPage {
  let status: JobStatusPage;
  try {
    status = service.jobStatus(team, "crawl", id, page);
  } catch (error) {
    if (!(error instanceof ScrapelineError && error.kind === "not-found")) throw error;
    status = service.jobStatus(team, "batch", id, page);
  }
  return v1StatusPage(status, id);
}

/** A status page's documents with v1's names. */
export function v1StatusPage(status: JobStatusPage, id: string): JobStatusPage {
  return { ...status, data: jobDocuments(id, status.data) };
}

/** A job's documents (a status page's, a webhook's page event's) with the names of the version that started it. */
export function jobDocuments(id: string, documents: Document[]): Document[] {
  if (!EXTRACT_NAMED.has(id)) return documents;
  return documents.map((d) => v1Document(d, true) as unknown as Document);
}

/**
 * POST /v1/map: v1's ignoreSitemap and sitemapOnly are the sitemap setting; useIndex (the hosted
 * index) has no meaning here. The links are plain URLs.
 */
export async function mapV1(service: V2Service, team: Team, raw: unknown): Promise<{ links: string[]; warning?: string }> {
  const body = asObject(raw);
  const { ignoreSitemap, sitemapOnly, useIndex, ...rest } = body;
  if (useIndex !== undefined && typeof useIndex !== "boolean") throw bad("useIndex must be a boolean");
  for (const [name, value] of [["ignoreSitemap", ignoreSitemap], ["sitemapOnly", sitemapOnly]] as const) {
    if (value !== undefined && typeof value !== "boolean") throw bad(`${name} must be a boolean`);
  }
  if (ignoreSitemap === true && sitemapOnly === true) throw bad("ignoreSitemap and sitemapOnly contradict each other");
  if ((ignoreSitemap === true || sitemapOnly === true) && rest.sitemap !== undefined) throw bad("give sitemap or ignoreSitemap/sitemapOnly, not both");
  if (ignoreSitemap === true) rest.sitemap = "skip";
  if (sitemapOnly === true) rest.sitemap = "only";
  const { links, warning } = await service.map(team, rest, "v1");
  return { links: links.map((l) => l.url), ...(warning ? { warning } : {}) };
}

/** POST /v1/search: web results only, as one flat list of documents (url, title, description, and the page when scraped). */
export async function searchV1(service: V2Service, team: Team, raw: unknown): Promise<{ data: Array<Record<string, unknown>>; warning?: string }> {
  const body = nestedOptions(asObject(raw));
  if ("sources" in body) throw new ScrapelineError("invalid-input", "Unrecognized key in body -- sources (v1 search gives web results; use POST /v2/search for news and images)");
  const named = namesExtract(body.scrapeOptions as Body | undefined);
  const reply = await service.search(team, body, "v1");
  const data = (reply.data.web ?? []).map((item) => v1Document(item as unknown as Document, named));
  return { data, ...(reply.warning ? { warning: reply.warning } : {}) };
}

/**
 * POST /v1/extract: v1 clients send allowExternalLinks (false: this server follows no link off the
 * listed pages), `schema: null` for none, systemPrompt (added to the prompt, after it so the
 * prompt's first line stays what a web search looks for) and agent (no FIRE-1 here).
 */
export function startExtractV1(service: V2Service, team: Team, raw: unknown): { id: string; invalidURLs?: string[]; warning?: string } {
  const body = nestedOptions(asObject(raw));
  if (body.allowExternalLinks === false) delete body.allowExternalLinks;
  else if (body.allowExternalLinks !== undefined) throw bad("allowExternalLinks: true is not supported: this server extracts from the pages urls names (globs included) and follows no link off them; list the other pages in urls");
  if (body.schema === null) delete body.schema;
  if (body.agent !== undefined && body.agent !== null) throw bad("agent (FIRE-1) is not offered; leave it out, or use POST /v2/agent");
  delete body.agent;
  if (body.systemPrompt !== undefined && body.systemPrompt !== null) {
    if (typeof body.systemPrompt !== "string") throw bad("systemPrompt must be a string");
    body.prompt = typeof body.prompt === "string" && body.prompt !== "" ? `${body.prompt}\n\n${body.systemPrompt}` : body.systemPrompt;
  }
  delete body.systemPrompt;
  return service.startExtract(team, body, "v1");
}

/** GET /v1/team/credit-usage: what is left of the team's plan in this billing period, in credits (15 tokens each). */
export function creditUsageV1(service: V2Service, team: Team): { remaining_credits: number; plan_credits: number; billing_period_start: string; billing_period_end: string } {
  const usage = service.tokenUsage(team, "all");
  return {
    remaining_credits: Math.floor(usage.remainingTokens / TOKENS_PER_CREDIT),
    plan_credits: Math.floor(usage.planTokens / TOKENS_PER_CREDIT),
    billing_period_start: usage.billingPeriodStart,
    billing_period_end: usage.billingPeriodEnd,
  };
}

/** v1 endpoints the service replaced, and what replaced them. */
export const V1_RETIRED: Record<string, string> = {
  "deep-research": "deep research is not offered on v1; POST /v2/agent does the same work (a prompt, optional urls and schema, polled at GET /v2/agent/{id})",
  llmstxt: "llms.txt generation is not offered, and v2 has no replacement; POST /v2/map lists a site's pages and POST /v2/batch/scrape gives their markdown",
};
