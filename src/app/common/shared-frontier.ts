import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { CrawlFrontierPort, CrawlRequest, Engine, HostGate, SharedFrontierHooks } from "../../core/index.js";
import type { CrawlFrontierTables, FrontierPage } from "../../store/index.js";

/** How long a claim lasts unless its process renews it (every third of it): a process killed mid-page loses its pages to the others after this. */
export const DEFAULT_LEASE_MS = 30_000;

/** How often a process with nothing to fetch asks whether other processes' pages brought more. */
const WAIT_FOR_PAGES_MS = 100;

/**
 * One process's name in shared crawls, and the lease it holds its claims, host slots and led
 * crawls by: renewed every third of the lease while the process lives.
 */
export class FrontierHolder {
  readonly id = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly timer: NodeJS.Timeout;

  constructor(
    readonly tables: CrawlFrontierTables,
    readonly leaseMs: number = DEFAULT_LEASE_MS,
  ) {
    this.timer = setInterval(() => {
      try {
        tables.heartbeat(this.id, leaseMs);
      } catch {
        // The database is unreachable for now: the next beat tries again; leases may end meanwhile.
      }
    }, Math.max(100, Math.floor(leaseMs / 3)));
    this.timer.unref();
  }

  /** Request slots per host shared with every process (the pool asks before each request). */
  hostGate(): HostGate {
    return {
      take: (host, limit, intervalMs) => this.tables.takeHost(host, this.id, limit, intervalMs, this.leaseMs),
      release: (slot) => this.tables.releaseHost(slot),
      pause: (host, forMs) => {
        if (forMs > 0) this.tables.pauseHost(host, forMs);
      },
    };
  }

  close(): void {
    clearInterval(this.timer);
  }
}

/**
 * A crawl's frontier kept in the store for every process working on the crawl. This process's
 * own frontier (`rules`, the engine's) decides which links the crawl accepts (scope, depth,
 * include/exclude, robots.txt) and their dedup keys; the store keeps each accepted page once, counts
 * them against the limit for all processes, and hands each out to one process at a time.
 */
export class SharedFrontier implements CrawlFrontierPort {
  /** Pages claimed and not handed out yet. */
  private buffer: FrontierPage[] = [];
  /** Pages handed out and not done yet, by URL: their keys. */
  private readonly handedOut = new Map<string, string>();
  private found = 0;
  private stopped = false;
  /** True once this process saw no page queued or claimed by anyone: the crawl has nothing left to fetch. */
  over = false;
  readonly shared: SharedFrontierHooks;

  constructor(
    private readonly holder: FrontierHolder,
    private readonly jobId: string,
    private readonly rules: CrawlFrontierPort,
    private readonly request: Pick<CrawlRequest, "sitemap">,
    options: { leads: boolean; batch: number },
  ) {
    this.batch = Math.max(1, options.batch);
    this.shared = { leads: options.leads, more: (signal) => this.more(signal) };
    // The pages the engine's frontier was seeded with (the start URL, the sitemaps' URLs) join the shared one.
    this.publish();
  }

  private readonly batch: number;

  next(): { url: string; depth: number; linksOnly?: true } | undefined {
    if (this.buffer.length === 0 && !this.stopped) this.claim();
    const page = this.buffer.shift();
    if (!page) return undefined;
    this.handedOut.set(page.url, page.key);
    return { url: page.url, depth: page.depth, ...(page.linksOnly ? { linksOnly: true as const } : {}) };
  }

  discover(fromUrl: string, links: readonly string[], fromDepth: number): void {
    if (this.request.sitemap === "only") return;
    this.rules.discover(fromUrl, links, fromDepth);
    this.publish();
  }

  done(url: string): void {
    const key = this.handedOut.get(url);
    if (key === undefined) return;
    this.handedOut.delete(url);
    this.holder.tables.finishPages(this.jobId, this.holder.id, [key]);
  }

  get stats(): { found: number; skippedByRobots: number; skippedByRules: number } {
    const own = this.rules.stats;
    return { found: Math.max(this.found, 1), skippedByRobots: own.skippedByRobots, skippedByRules: own.skippedByRules };
  }

  get delaySeconds(): number | undefined {
    return this.rules.delaySeconds;
  }

  get robotsBlocked(): readonly string[] {
    return this.rules.robotsBlocked;
  }

  get warnings(): readonly string[] {
    return this.rules.warnings;
  }

  /** The store holds the crawl's state: nothing to save beside it. */
  snapshot(): unknown {
    return { sharedCrawl: this.jobId };
  }

  /** Gives the pages this process claimed and did not finish back to the others. */
  close(): void {
    const keys = [...this.buffer.map((p) => p.key), ...this.handedOut.values()];
    this.buffer = [];
    this.handedOut.clear();
    if (keys.length > 0) this.holder.tables.releasePages(this.jobId, this.holder.id, keys);
  }

  /** The links this process's frontier accepted since it was last asked, added to the shared one. */
  private publish(): void {
    const pages: FrontierPage[] = [];
    for (let page = this.rules.next(); page; page = this.rules.next()) {
      pages.push({ key: this.rules.keyOf ? this.rules.keyOf(page.url) : page.url, url: page.url, depth: page.depth, linksOnly: page.linksOnly === true });
    }
    // The rules' query-variant count is this process's: the store counts each path's across processes.
    const max = this.rules.maxQueryVariants;
    if (pages.length > 0) this.holder.tables.addPages(this.jobId, pages, max === undefined ? undefined : { maxQueryVariants: max });
  }

  private claim(): { open: number } {
    const claimed = this.holder.tables.claim(this.jobId, this.holder.id, this.batch, this.holder.leaseMs);
    this.found = claimed.found;
    if (claimed.state === "stopped") this.stopped = true;
    this.buffer.push(...claimed.pages);
    return { open: claimed.open };
  }

  private async more(signal: AbortSignal): Promise<boolean> {
    while (!signal.aborted && !this.stopped) {
      if (this.buffer.length > 0) return true;
      const { open } = this.claim();
      if (this.buffer.length > 0) return true;
      // Nothing queued and nothing claimed by anyone: the crawl is over.
      if (open === 0 && !this.stopped) this.over = true;
      if (open === 0 || this.stopped) return false;
      try {
        await sleep(WAIT_FOR_PAGES_MS, undefined, { signal });
      } catch {
        return false;
      }
    }
    return false;
  }
}

/**
 * The engine with its crawls' frontiers shared: `startCrawl` opens the engine's own frontier (for
 * its rules, robots.txt and seeds) and hands out `share(local, request)` instead; the engine is
 * the caller's otherwise, never closed by the crawl.
 */
export function sharingEngine(engine: Engine, share: (local: CrawlFrontierPort, request: CrawlRequest) => SharedFrontier, request?: (given: CrawlRequest) => CrawlRequest): Engine {
  if (!engine.startCrawl) return engine;
  const startCrawl = engine.startCrawl.bind(engine);
  return Object.create(engine, {
    startCrawl: {
      value: async (given: CrawlRequest, options: Parameters<typeof startCrawl>[1]) => {
        const { restore: _restore, ...rest } = options;
        return share(await startCrawl(request ? request(given) : given, rest), given);
      },
    },
    close: { value: async () => {} },
  }) as Engine;
}
