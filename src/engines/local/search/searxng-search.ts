import type { SearchAnswer, SearchRequest, SearchResults, SearchSource } from "../../../core/index.js";
import { ScrapelineError } from "../../../core/index.js";
import { onDomain, pageParams, requestWarnings } from "./query.js";
import { keyOf, toResult } from "./results.js";
import { fetchSearxngPage, SEARXNG_START, SEARXNG_VARIABLE } from "./searxng-client.js";

/** Pages read per source at most: SearXNG gives 10–20 results a page, fewer when engines fail. */
const MAX_PAGES = 12;

/**
 * A search on the operator's SearXNG: each source (web, news, images) is its own category, read
 * page by page until `limit` results or a page that adds nothing; domain filters are sent as
 * `site:` terms and applied again to the results (not every engine honours them). Engines that
 * did not answer are a warning; all of them failing is an empty result with that warning.
 */
export async function searchSearxng(base: string | undefined, request: SearchRequest, signal: AbortSignal = new AbortController().signal): Promise<SearchAnswer> {
  if (!base) {
    throw new ScrapelineError("unsupported", `web search on the local engine needs a SearXNG instance: set ${SEARXNG_VARIABLE} to its address (e.g. http://127.0.0.1:8888). Start one with: ${SEARXNG_START}; or run the step on the firecrawl engine`);
  }
  try {
    new URL(base);
  } catch {
    throw new ScrapelineError("invalid-input", `${SEARXNG_VARIABLE} is not a URL: give the address of the SearXNG instance, e.g. http://127.0.0.1:8888`);
  }
  const deadline = { signal: AbortSignal.timeout(request.timeout), ms: request.timeout };
  const warnings = requestWarnings(request);
  const failed = new Map<string, string>();
  let anyAnswered = false;
  const data: SearchResults = {};
  for (const source of uniqueSources(request.sources)) {
    const found = await searchSource(base, request, source, signal, deadline, (name, reason, answered) => {
      if (name) failed.set(name, reason);
      if (answered) anyAnswered = true;
    });
    (data as Record<string, unknown>)[source.type] = found;
  }
  const total = Object.values(data).reduce((n, list) => n + (list as unknown[]).length, 0);
  if (failed.size > 0) {
    const list = [...failed].map(([name, reason]) => `${name} (${reason})`).join(", ");
    warnings.push(total === 0 && !anyAnswered ? `no results: every search engine SearXNG asked failed: ${list}` : `some of SearXNG's search engines did not answer: ${list}`);
  }
  return { data, warnings };
}

/** The first object of each source type (the schema allows repeats; the service answers one list per type). */
function uniqueSources(sources: SearchSource[]): SearchSource[] {
  const seen = new Set<string>();
  return sources.filter((s) => !seen.has(s.type) && seen.add(s.type));
}

type Report = (engine: string | undefined, reason: string, answered: boolean) => void;

async function searchSource(base: string, request: SearchRequest, source: SearchSource, signal: AbortSignal, deadline: { signal: AbortSignal; ms: number }, report: Report) {
  const items: Array<Record<string, unknown>> = [];
  const seen = new Set<string>();
  const categories = request.categories ?? [];
  for (let pageno = 1; pageno <= MAX_PAGES && items.length < request.limit; pageno++) {
    const page = await fetchSearxngPage(base, pageParams(request, source, pageno), signal, deadline);
    for (const [name, reason] of page.unresponsive) report(name, reason, false);
    if (page.results.length > 0) report(undefined, "", true);
    let added = 0;
    for (const raw of page.results) {
      const item = toResult(source.type, raw, categories);
      if (!item || !allowed(item.url, request)) continue;
      const key = keyOf(source.type, item);
      if (seen.has(key)) continue;
      seen.add(key);
      items.push({ ...item, position: items.length + 1 });
      added++;
      if (items.length >= request.limit) break;
    }
    if (added === 0) break;
  }
  return items;
}

function allowed(url: string, request: SearchRequest): boolean {
  if (!request.includeDomains && !request.excludeDomains) return true;
  const host = new URL(url).hostname.toLowerCase();
  if (request.includeDomains && !request.includeDomains.some((d) => onDomain(host, d))) return false;
  return !request.excludeDomains?.some((d) => onDomain(host, d));
}
