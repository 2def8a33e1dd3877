import { ScrapelineError, type CrawlRequest } from "../../../core/index.js";
import { MAX_URL_LENGTH, normalizedUrl, normalizeUrl } from "./normalize-url.js";
import type { Robots } from "./robots.js";
import { crawlRules, dedupeKey, type CrawlRules } from "./rules.js";

/** More query-string variants of one path than this are taken for a trap (calendars, session ids). */
export const MAX_QUERY_VARIANTS = 10;
/** How many robots-blocked URLs are kept for the report. */
export const MAX_ROBOTS_LISTED = 1000;

/** A page handed out by the frontier: its normalized URL and how many links away from a seed. */
export interface FrontierEntry {
  url: string;
  depth: number;
  /** The start URL when the include/exclude patterns refuse it: fetched for its links, not a page of the crawl. */
  linksOnly?: true;
}

/** robots.txt and trap bounds for a frontier. */
export interface FrontierOptions {
  /** robots.txt of the start origin (and of others already loaded); each applies to its own origin. */
  robots?: Robots | readonly Robots[];
  maxQueryVariants?: number;
}

type PageState = "queued" | "active" | "done";

/** The frontier as plain JSON, for `restore()` after an interruption. */
export interface FrontierState {
  version: 1;
  start: string;
  /** Every accepted page in the order it was accepted. */
  pages: Array<[url: string, depth: number, state: PageState]>;
  skippedByRules: number;
  skippedByRobots: number;
  robotsBlocked: string[];
}

interface Page {
  url: string;
  depth: number;
  state: PageState;
}

/**
 * The crawl frontier: which URLs a crawl fetches, in breadth-first order. It holds only what it
 * accepted — at most `limit` pages ever — and never a set of rejected URLs, so a link farm or an
 * infinite calendar costs memory bounded by `limit`. Rejections are counted per occurrence (a
 * URL linked twice and refused twice counts twice). The start URL is exempt from the path
 * rules (include/exclude and the start-path prefix), which would otherwise make it unreachable;
 * when include/exclude refuse it, it is handed out `linksOnly` (as the service does: its links are
 * followed, the page itself is not in the results) and does not count against `limit`.
 */
export class CrawlFrontier {
  private readonly request: CrawlRequest;
  private readonly ruleSet: CrawlRules;
  private readonly startKey: string;
  private readonly start: string;
  /** The include/exclude patterns refuse the start URL. */
  private readonly startLinksOnly: boolean;
  private readonly robots: Map<string, Robots>;
  private pages = new Map<string, Page>();
  private queue: string[] = [];
  private head = 0;
  private variants = new Map<string, number>();
  /** Query-string variants of one path admitted at most. */
  readonly maxQueryVariants: number;
  private waiting = 0;
  private ruleSkips = 0;
  private robotsSkips = 0;
  private blocked: string[] = [];

  constructor(request: CrawlRequest, options: FrontierOptions = {}) {
    const start = normalizeUrl(request.url, undefined, { ignoreQueryParameters: request.ignoreQueryParameters });
    if (start === undefined) throw new ScrapelineError("invalid-input", `cannot crawl ${JSON.stringify(request.url)}: not an http(s) URL`, { url: request.url });
    this.request = request;
    this.start = start;
    this.startKey = this.key(new URL(start));
    this.maxQueryVariants = options.maxQueryVariants ?? MAX_QUERY_VARIANTS;
    this.ruleSet = crawlRules(request, new URL(start), this.maxQueryVariants);
    this.startLinksOnly = !this.ruleSet.pathAllowed(new URL(start));
    const robots = options.robots === undefined ? [] : Array.isArray(options.robots) ? options.robots : [options.robots as Robots];
    this.robots = new Map(robots.map((r) => [r.origin, r]));
  }

  /** Applies `robots` to the URLs of its origin from now on (replacing an earlier one for that origin). */
  useRobots(robots: Robots): void {
    this.robots.set(robots.origin, robots);
  }

  /** Pages accepted so far (queued, in progress and done); never more than `limit`. */
  get found(): number {
    return this.pages.size;
  }

  /** Pages accepted and not yet handed out by `next()`. */
  get queued(): number {
    return this.waiting;
  }

  /** Candidates refused by a rule (scope, depth, include/exclude, traps), counted per occurrence. */
  get skippedByRules(): number {
    return this.ruleSkips;
  }

  /** Candidates refused by robots.txt, counted per occurrence. */
  get skippedByRobots(): number {
    return this.robotsSkips;
  }

  /** The distinct robots-refused URLs, the first MAX_ROBOTS_LISTED of them. */
  get robotsBlocked(): readonly string[] {
    return this.blocked;
  }

  /** True once `limit` pages are accepted: nothing more will be. */
  get full(): boolean {
    return this.pages.size - (this.startLinksOnly && this.pages.has(this.startKey) ? 1 : 0) >= this.request.limit;
  }

  /** Sizes of the internal collections, to check that memory stays bounded. */
  sizes(): { pages: number; queue: number; queryPaths: number; robotsBlocked: number } {
    return { pages: this.pages.size, queue: this.queue.length - this.head, queryPaths: this.variants.size, robotsBlocked: this.blocked.length };
  }

  /** Adds the start URL or sitemap URLs (depth 0 by default); off-site seeds are refused. Returns how many were accepted. */
  seed(urls: readonly string[], depth = 0): number {
    let accepted = 0;
    for (const url of urls) {
      if (this.full) break;
      if (this.consider(url, undefined, depth, false)) accepted++;
    }
    return accepted;
  }

  /**
   * Adds the links found on `fromUrl` (the page's final URL) at `fromDepth + 1`. Nothing is
   * followed from an off-site page or when the crawl reads sitemaps only. Returns how many were accepted.
   */
  discover(fromUrl: string, links: readonly string[], fromDepth: number): number {
    if (this.request.sitemap === "only" || this.full) return 0;
    let from: URL;
    try {
      from = new URL(fromUrl);
    } catch {
      return 0;
    }
    if (!this.ruleSet.onSite(from)) return 0;
    let accepted = 0;
    for (const link of links) {
      if (this.full) break;
      if (this.consider(link, from.href, fromDepth + 1, this.request.allowExternalLinks)) accepted++;
    }
    return accepted;
  }

  /** The key `url` is deduplicated by (normalized; similar URLs share one with deduplicateSimilarURLs); the URL itself when it cannot be normalized. */
  keyOf(url: string): string {
    const parsed = normalizedUrl(url, undefined, { ignoreQueryParameters: this.request.ignoreQueryParameters });
    return parsed === undefined ? url : this.key(parsed);
  }

  /** The next page to fetch, first accepted first (breadth-first); undefined when none is waiting. */
  next(): FrontierEntry | undefined {
    while (this.head < this.queue.length) {
      const key = this.queue[this.head++] as string;
      const page = this.pages.get(key);
      if (page?.state !== "queued") continue;
      page.state = "active";
      this.waiting--;
      this.compact();
      return { url: page.url, depth: page.depth, ...(this.startLinksOnly && key === this.startKey ? { linksOnly: true as const } : {}) };
    }
    return undefined;
  }

  /** Marks a page finished (fetched or failed for good); it is not handed out again, even after `restore()`. */
  done(url: string): void {
    const parsed = normalizedUrl(url, undefined, { ignoreQueryParameters: this.request.ignoreQueryParameters });
    const page = parsed === undefined ? undefined : this.pages.get(this.key(parsed));
    if (!page || page.state === "done") return;
    if (page.state === "queued") this.waiting--;
    page.state = "done";
  }

  /** The state as plain JSON. */
  snapshot(): FrontierState {
    return {
      version: 1,
      start: this.start,
      pages: [...this.pages.values()].map((p) => [p.url, p.depth, p.state]),
      skippedByRules: this.ruleSkips,
      skippedByRobots: this.robotsSkips,
      robotsBlocked: [...this.blocked],
    };
  }

  /** Replaces the state with a snapshot of a crawl of the same start URL; pages that were in progress are queued again. */
  restore(state: FrontierState): void {
    if (state?.version !== 1 || state.start !== this.start || !Array.isArray(state.pages)) {
      throw new ScrapelineError("invalid-input", `the saved crawl state does not belong to a crawl of ${this.start}`);
    }
    this.pages = new Map();
    this.queue = [];
    this.head = 0;
    this.variants = new Map();
    this.waiting = 0;
    for (const [url, depth, saved] of state.pages.slice(0, this.request.limit)) {
      const href = normalizeUrl(String(url), undefined, { ignoreQueryParameters: this.request.ignoreQueryParameters });
      if (href === undefined || typeof depth !== "number") throw new ScrapelineError("invalid-input", `the saved crawl state holds a bad page: ${JSON.stringify(url)}`);
      const parsed = new URL(href);
      const key = this.key(parsed);
      if (this.pages.has(key)) continue;
      this.admit(key, parsed, href, depth);
      if (saved === "done") this.done(href);
    }
    this.ruleSkips = state.skippedByRules;
    this.robotsSkips = state.skippedByRobots;
    this.blocked = state.robotsBlocked.slice(0, MAX_ROBOTS_LISTED);
  }

  private consider(raw: string, base: string | undefined, depth: number, allowExternal: boolean): boolean {
    const url = normalizedUrl(raw, base, { ignoreQueryParameters: this.request.ignoreQueryParameters });
    if (url === undefined) {
      if (raw.length > MAX_URL_LENGTH) this.ruleSkips++;
      return false;
    }
    const href = url.href;
    const key = this.key(url);
    if (this.pages.has(key)) return false;
    const candidate = { depth, externalAllowed: allowExternal, start: key === this.startKey, queryVariants: this.variants.get(pathKey(key)) ?? 0 };
    if (!this.ruleSet.admits(url, candidate)) {
      this.ruleSkips++;
      return false;
    }
    const robots = this.robots.get(url.origin);
    if (robots && !robots.allows(href)) {
      this.robotsSkips++;
      if (this.blocked.length < MAX_ROBOTS_LISTED && !this.blocked.includes(href)) this.blocked.push(href);
      return false;
    }
    this.admit(key, url, href, depth);
    return true;
  }

  private admit(key: string, url: URL, href: string, depth: number): void {
    this.pages.set(key, { url: href, depth, state: "queued" });
    this.queue.push(key);
    this.waiting++;
    if (url.search !== "") {
      const path = pathKey(key);
      this.variants.set(path, (this.variants.get(path) ?? 0) + 1);
    }
  }

  private key(url: URL): string {
    return dedupeKey(url, this.request.deduplicateSimilarURLs);
  }

  /** Drops the handed-out head of the queue once it outweighs the rest. */
  private compact(): void {
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
  }
}

function pathKey(key: string): string {
  const query = key.indexOf("?");
  return query === -1 ? key : key.slice(0, query);
}
