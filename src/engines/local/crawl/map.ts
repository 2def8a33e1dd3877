import { isScrapelineError, ScrapelineError, type MapLink, type MapRequest, type MapResult } from "../../../core/index.js";
import type { FetchGate } from "../fetch/index.js";
import { MAX_MAP_CANDIDATES, MapList } from "./map-list.js";
import { readStartPage } from "./map-start.js";
import { walkSite, type WalkReport } from "./map-walk.js";
import { normalizeUrl } from "./normalize-url.js";
import { loadRobots, type Robots } from "./robots.js";
import { readSitemaps, sitemapSources, sitemapWarnings } from "./sitemap.js";

/** How long a map may take when the request sets no `timeout`. */
export const DEFAULT_MAP_TIMEOUT_MS = 60_000;

/** Settings of `mapSite` beyond the request itself. */
export interface MapOptions {
  /** robots.txt of the start origin, when already loaded; otherwise it is fetched. */
  robots?: Robots;
  headers?: Record<string, string>;
  skipTlsVerification?: boolean;
  maxSitemaps?: number;
  /** Pages of the walk fetched at once (default WALK_CONCURRENCY). */
  concurrency?: number;
  signal?: AbortSignal;
}

export type { MapLink, MapResult };

interface FetchOptions {
  headers?: Record<string, string>;
  skipTlsVerification?: boolean;
  signal: AbortSignal;
}

/**
 * Lists the URLs of a site: those of its sitemaps (unless `sitemap: skip`) and, unless
 * `sitemap: only`, those a breadth-first walk of its links finds from the start page and the
 * sitemap URLs (links only: nothing converted or stored; see walkSite). URLs are normalized and
 * deduplicated, kept to the start host (and its subdomains with `includeSubdomains`), without
 * what robots.txt disallows, ordered by relevance to `search` when given, at most `limit`.
 * Titles and descriptions are those of the pages read. The walk ends once `limit` URLs are
 * known, when no page is left, or at `timeout` (default 60 s): then what was found is returned
 * with a warning. A failing sitemap or start page is a warning (a page of the walk that fails
 * is skipped); finding nothing throws the cause (the start page's failure, robots.txt's when the
 * site could not be reached, or a `timeout`).
 */
export async function mapSite(gate: FetchGate, request: MapRequest, options: MapOptions = {}): Promise<MapResult> {
  const start = normalizeUrl(request.url, undefined, { ignoreQueryParameters: request.ignoreQueryParameters });
  if (start === undefined) throw new ScrapelineError("invalid-input", `cannot map ${JSON.stringify(request.url)}: not an http(s) URL`, { url: request.url });
  const budgetMs = request.timeout ?? DEFAULT_MAP_TIMEOUT_MS;
  const timer = AbortSignal.timeout(budgetMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timer]) : timer;
  const outOfTime = (): boolean => timer.aborted && options.signal?.aborted !== true;
  const timedOut = (cause?: unknown) => new ScrapelineError("timeout", `map of ${start} timed out after ${budgetMs} ms before finding any URL`, { url: start, cause });
  try {
    const { list, warnings, report } = await collect(gate, request, start, options, { signal, outOfTime });
    if (options.signal?.aborted) throw new ScrapelineError("cancelled", `map of ${start} cancelled`, { url: start });
    if (outOfTime()) {
      if (list.size === 0) throw timedOut();
      const read = report ? `; ${report.pages} page(s) read, ${report.unread} left unread` : "";
      warnings.push(`the map stopped at its timeout of ${budgetMs} ms with ${list.size} URL(s)${read}; the site may have more`);
    }
    const result: MapResult = { links: list.result() };
    if (warnings.length > 0) result.warning = warnings.join("; ");
    return result;
  } catch (error) {
    if (outOfTime() && isScrapelineError(error, "cancelled")) throw timedOut(error);
    throw error;
  }
}

/** Robots, sitemaps and the start page, then the walk; throws when nothing was found and something failed. */
async function collect(gate: FetchGate, request: MapRequest, start: string, options: MapOptions, time: { signal: AbortSignal; outOfTime: () => boolean }) {
  const warnings: string[] = [];
  const fetchOptions: FetchOptions = {
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.skipTlsVerification ? { skipTlsVerification: true } : {}),
    signal: time.signal,
  };
  const origin = new URL(start).origin;
  const unreachable: { error?: ScrapelineError } = {};
  const robots = options.robots ?? (await loadRobots(watched(gate, unreachable), origin, fetchOptions));
  if (robots.note) warnings.push(robots.note);
  const startAllowed = robots.allows(start);
  if (!startAllowed && unreachable.error === undefined) warnings.push(`robots.txt disallows ${start}; its links were not read`);

  // Out of time, what did not finish counts as not found; any other cancellation is thrown.
  const unlessOutOfTime = <T>(work: Promise<T> | undefined): Promise<T | undefined> | undefined =>
    work?.catch((error: unknown) => {
      if (time.outOfTime()) return undefined;
      throw error;
    });
  const [sitemaps, page] = await Promise.all([
    unlessOutOfTime(request.sitemap === "skip" ? undefined : readSitemaps(gate, sitemapSources(origin, robots), { maxUrls: Math.min(MAX_MAP_CANDIDATES, request.limit * 4 + 1000), ...fetchOptions, ...(options.maxSitemaps ? { maxSitemaps: options.maxSitemaps } : {}) })),
    unlessOutOfTime(request.sitemap === "only" || !startAllowed ? undefined : readStartPage(gate, start, fetchOptions)),
  ]);
  if (sitemaps) warnings.push(...sitemapWarnings(origin, sitemaps));
  if (page instanceof Error) warnings.push(page.message);

  const list = new MapList(request, start, robots);
  const read = page !== undefined && !(page instanceof Error) ? page : undefined;
  if (read) {
    list.addPage(read.url, read.head);
    list.addLinks(read.links, read.url);
  }
  for (const url of sitemaps?.urls ?? []) list.add(url);

  let report: WalkReport | undefined;
  if (request.sitemap !== "only" && !time.outOfTime()) {
    const seeds = [...(read ? list.listed(read.links, read.url) : []), ...list.listed(sitemaps?.urls ?? [])].filter((url) => list.worthWalking(url));
    const robotsOf = robotsByOrigin(gate, robots, fetchOptions);
    report = await walkSite(
      gate,
      seeds,
      {
        mayVisit: async (url) => list.onSite(url) && (await robotsOf(url)).allows(url),
        found: (visited) => {
          list.addPage(visited.url, visited.head);
          return list.addLinks(visited.links, visited.url).filter((url) => list.worthWalking(url));
        },
        full: () => list.full,
      },
      {
        ...fetchOptions,
        ...(read ? { visited: list.listed([read.url, start]) } : {}),
        ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
        ...(robots.crawlDelaySeconds ? { delayMs: robots.crawlDelaySeconds * 1000 } : {}),
      },
    );
  }
  if (list.size === 0 && !time.outOfTime()) {
    if (page instanceof Error) throw page;
    // The site could not be reached at all: that, not "no URL", is the answer.
    if (unreachable.error) throw unreachable.error;
  }
  return { list, warnings, report };
}

/** robots.txt of each origin the walk meets (subdomains), loaded once each. */
function robotsByOrigin(gate: FetchGate, start: Robots, fetchOptions: FetchOptions): (url: string) => Promise<Robots> {
  const loaded = new Map<string, Promise<Robots>>([[start.origin, Promise.resolve(start)]]);
  return (url) => {
    const origin = new URL(url).origin;
    let robots = loaded.get(origin);
    if (robots === undefined) loaded.set(origin, (robots = loadRobots(gate, origin, fetchOptions)));
    return robots;
  };
}

/**
 * The gate, noting in `unreachable` why robots.txt could not be had: the request's failure
 * (DNS, refused connection, network policy) or a 429/5xx answer. robots.txt keeps only a note.
 */
function watched(gate: FetchGate, unreachable: { error?: ScrapelineError }): FetchGate {
  return {
    fetch: async (request) => {
      try {
        const response = await gate.fetch(request);
        if (response.status === 429 || response.status >= 500) {
          unreachable.error = new ScrapelineError("http-status", `${response.url} answered HTTP ${response.status}; the site could not be mapped`, { url: request.url, status: response.status });
        }
        return response;
      } catch (error) {
        if (isScrapelineError(error) && error.kind !== "cancelled") unreachable.error = error;
        throw error;
      }
    },
    close: () => gate.close(),
  };
}
