import { ScrapelineError, type CrawlRequest } from "../../../core/index.js";
import type { FetchGate } from "../fetch/index.js";
import { CrawlFrontier } from "./frontier.js";
import { normalizeUrl } from "./normalize-url.js";
import { loadRobots, type Robots } from "./robots.js";
import { readSitemaps, sitemapSources, sitemapWarnings } from "./sitemap.js";

/** Sitemap URLs read at most to seed one crawl, whatever the limit. */
const MAX_SITEMAP_URLS = 200_000;

/** Settings of `startCrawl` beyond the request itself. */
export interface CrawlStartOptions {
  /** robots.txt of the start origin, when already loaded; otherwise it is fetched. */
  robots?: Robots;
  maxSitemaps?: number;
  signal?: AbortSignal;
}

/** Everything a crawl needs before its first page: the seeded frontier and the politeness delay. */
export interface CrawlStart {
  frontier: CrawlFrontier;
  robots: Robots;
  /** Sitemap files read, in order. */
  sitemaps: string[];
  /** Wait between two pages of the site: `delay` if set, else robots.txt's Crawl-delay, else 0. */
  delayMs: number;
  warnings: string[];
}

/**
 * Prepares a crawl: loads robots.txt, reads the sitemaps (`sitemap: include` or `only`), and
 * seeds a frontier with the start URL and the sitemap URLs at depth 0. With `sitemap: only`
 * the start URL is crawled only when no sitemap gives a usable URL (and a warning says so).
 * A crawl that could not fetch anything throws, naming the cause and the start URL: a start host
 * that is down (its name does not resolve, it refuses connections, the network policy refuses
 * it), or robots.txt leaving nothing to crawl. Every other failure is a warning.
 */
export async function startCrawl(gate: FetchGate, request: CrawlRequest, options: CrawlStartOptions = {}): Promise<CrawlStart> {
  const frontier = new CrawlFrontier(request); // a bad URL or pattern fails here, before any fetch
  const start = normalizeUrl(request.url, undefined, { ignoreQueryParameters: request.ignoreQueryParameters }) as string;
  const origin = new URL(start).origin;
  const { headers, skipTlsVerification } = request.scrapeOptions;
  const fetchOptions = {
    ...(headers ? { headers } : {}),
    ...(skipTlsVerification ? { skipTlsVerification: true } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  };
  const robots = options.robots ?? (await loadRobots(gate, origin, fetchOptions));
  if (robots.hostDown) {
    throw new ScrapelineError(robots.hostDown.kind, `cannot crawl ${request.url}: ${robots.hostDown.message}`, { cause: robots.hostDown, url: request.url });
  }
  const warnings: string[] = robots.note ? [robots.note] : [];
  frontier.useRobots(robots);
  const read: string[] = [];

  if (request.sitemap !== "only") frontier.seed([start]);
  if (request.sitemap !== "skip") {
    const maxUrls = Math.min(MAX_SITEMAP_URLS, request.limit * 4 + 1000);
    const result = await readSitemaps(gate, sitemapSources(origin, robots), {
      maxUrls,
      ...fetchOptions,
      ...(options.maxSitemaps ? { maxSitemaps: options.maxSitemaps } : {}),
    });
    read.push(...result.sitemaps);
    warnings.push(...sitemapWarnings(origin, result));
    const accepted = frontier.seed(result.urls, 0);
    if (request.sitemap === "only" && accepted === 0) {
      warnings.push(`no usable URL in the sitemaps of ${origin}; crawling ${start} alone`);
      frontier.seed([start]);
    }
  }
  if (frontier.found === 0 && frontier.skippedByRobots > 0) {
    const why = robots.note ?? `${origin}/robots.txt disallows it`;
    throw new ScrapelineError("blocked", `cannot crawl ${request.url}: ${why}`, { url: request.url });
  }
  const seconds = request.delay ?? robots.crawlDelaySeconds ?? 0;
  return { frontier, robots, sitemaps: read, delayMs: Math.round(seconds * 1000), warnings };
}
