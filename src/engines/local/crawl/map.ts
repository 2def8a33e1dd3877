import { isScrapelineError, ScrapelineError, type MapLink, type MapRequest, type MapResult } from "../../../core/index.js";
import { decodeText, requestHeaders, type FetchGate } from "../fetch/index.js";
import { scanHead, scanLinks, type PageHead } from "./html-scan.js";
import { normalizedUrl, normalizeUrl } from "./normalize-url.js";
import { rankByRelevance } from "./rank.js";
import { dedupeKey } from "./rules.js";
import { loadRobots, type Robots } from "./robots.js";
import { siteHost } from "./scope.js";
import { readSitemaps, sitemapSources, sitemapWarnings } from "./sitemap.js";

const PAGE_TIMEOUT_MS = 30_000;
/** Sitemap URLs read at most for one map, whatever the limit. */
const MAX_SITEMAP_URLS = 200_000;

/** Settings of `mapSite` beyond the request itself. */
export interface MapOptions {
  /** robots.txt of the start origin, when already loaded; otherwise it is fetched. */
  robots?: Robots;
  headers?: Record<string, string>;
  skipTlsVerification?: boolean;
  maxSitemaps?: number;
  signal?: AbortSignal;
}

export type { MapLink, MapResult };

interface StartPage {
  url: string;
  head: PageHead;
  links: string[];
}

/**
 * Lists the URLs of a site: those of its sitemaps (unless `sitemap: skip`) and the links of the
 * start page (unless `sitemap: only`), normalized and deduplicated, kept to the start host (and
 * its subdomains with `includeSubdomains`), without what robots.txt disallows, ordered by
 * relevance to `search` when given, at most `limit`. Title and description are those of the
 * start page. A failing sitemap or start page becomes a warning; failing to find anything at
 * all throws. `timeout` bounds the whole call (a `timeout` error).
 */
export async function mapSite(gate: FetchGate, request: MapRequest, options: MapOptions = {}): Promise<MapResult> {
  const start = normalizeUrl(request.url, undefined, { ignoreQueryParameters: request.ignoreQueryParameters });
  if (start === undefined) throw new ScrapelineError("invalid-input", `cannot map ${JSON.stringify(request.url)}: not an http(s) URL`, { url: request.url });
  const timer = request.timeout === undefined ? undefined : AbortSignal.timeout(request.timeout);
  const signals = [options.signal, timer].filter((s): s is AbortSignal => s !== undefined);
  const signal = signals.length === 0 ? undefined : AbortSignal.any(signals);
  try {
    return await mapWithin(gate, request, start, { ...options, ...(signal ? { signal } : {}) });
  } catch (error) {
    if (timer?.aborted && isScrapelineError(error, "cancelled")) {
      throw new ScrapelineError("timeout", `map of ${start} timed out after ${request.timeout} ms`, { url: start, cause: error });
    }
    throw error;
  }
}

async function mapWithin(gate: FetchGate, request: MapRequest, start: string, options: MapOptions): Promise<MapResult> {
  const warnings: string[] = [];
  const fetchOptions = {
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.skipTlsVerification ? { skipTlsVerification: true } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  };
  const origin = new URL(start).origin;
  const robots = options.robots ?? (await loadRobots(gate, origin, fetchOptions));
  if (robots.note) warnings.push(robots.note);
  const startAllowed = robots.allows(start);
  if (!startAllowed) warnings.push(`robots.txt disallows ${start}; its links were not read`);

  const [sitemaps, page] = await Promise.all([
    request.sitemap === "skip"
      ? undefined
      : readSitemaps(gate, sitemapSources(origin, robots), { maxUrls: Math.min(MAX_SITEMAP_URLS, request.limit * 4 + 1000), ...fetchOptions, ...(options.maxSitemaps ? { maxSitemaps: options.maxSitemaps } : {}) }),
    request.sitemap === "only" || !startAllowed ? undefined : readStartPage(gate, start, fetchOptions),
  ]);
  if (sitemaps) warnings.push(...sitemapWarnings(origin, sitemaps));
  if (page instanceof Error) warnings.push(page.message);

  const home = siteHost(new URL(start).hostname);
  const links = new Map<string, MapLink>();
  // Ranking needs every candidate; without a search term the first `limit` are the answer.
  const cap = request.search ? MAX_SITEMAP_URLS : request.limit;
  const add = (raw: string, base?: string): void => {
    if (links.size >= cap) return;
    const url = normalizedUrl(raw, base, { ignoreQueryParameters: request.ignoreQueryParameters });
    if (url === undefined) return;
    const href = url.href;
    const key = dedupeKey(url, false);
    if (links.has(key)) return;
    const host = siteHost(url.hostname);
    if (host !== home && !(request.includeSubdomains && host.endsWith(`.${home}`))) return;
    if (url.origin === robots.origin && !robots.allows(href)) return;
    links.set(key, { url: href });
  };
  if (page && !(page instanceof Error)) {
    add(page.url);
    const first = normalizedUrl(page.url, undefined, { ignoreQueryParameters: request.ignoreQueryParameters });
    const entry = first === undefined ? undefined : links.get(dedupeKey(first, false));
    if (entry) Object.assign(entry, page.head);
    for (const link of page.links) add(link, page.url);
  }
  for (const url of sitemaps?.urls ?? []) add(url);

  if (links.size === 0 && page instanceof Error) throw page;
  const ordered = request.search ? rankByRelevance([...links.values()], request.search) : [...links.values()];
  const result: MapResult = { links: ordered.slice(0, request.limit) };
  if (warnings.length > 0) result.warning = warnings.join("; ");
  return result;
}

/** The start page's links and head; a failure is returned (to become a warning), cancellation thrown. */
async function readStartPage(
  gate: FetchGate,
  url: string,
  options: { headers?: Record<string, string>; skipTlsVerification?: boolean; signal?: AbortSignal },
): Promise<StartPage | ScrapelineError> {
  try {
    const response = await gate.fetch({
      url,
      headers: requestHeaders({ mobile: false, ...(options.headers ? { headers: options.headers } : {}) }),
      timeoutMs: PAGE_TIMEOUT_MS,
      ...(options.skipTlsVerification ? { skipTlsVerification: true } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (response.status < 200 || response.status >= 300) {
      return new ScrapelineError("http-status", `the start page ${url} answered HTTP ${response.status}`, { url, status: response.status });
    }
    const html = decodeText(response.body, response.headers["content-type"]);
    return { url: response.url, head: scanHead(html), links: scanLinks(html, response.url) };
  } catch (error) {
    if (isScrapelineError(error, "cancelled")) throw error;
    if (isScrapelineError(error)) return error;
    throw error;
  }
}
