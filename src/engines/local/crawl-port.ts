import type { CrawlFrontierPort, CrawlRequest } from "../../core/index.js";
import { startCrawl, type FrontierState } from "./crawl/index.js";
import type { FetchGate } from "./fetch/index.js";

/**
 * Starts a local crawl: robots.txt and sitemaps are read and the frontier seeded, or, with a
 * saved state, the frontier continues where it stopped (sitemaps are not read again).
 */
export async function openCrawl(gate: FetchGate, request: CrawlRequest, options: { signal?: AbortSignal; restore?: unknown }): Promise<CrawlFrontierPort> {
  const restoring = options.restore !== undefined;
  const started = await startCrawl(gate, restoring ? { ...request, sitemap: "skip" } : request, options.signal ? { signal: options.signal } : {});
  const { frontier } = started;
  if (restoring) frontier.restore(options.restore as FrontierState);
  const warnings = restoring ? started.warnings.filter((w) => !w.includes("sitemap")) : started.warnings;
  return {
    next: () => frontier.next(),
    discover: (fromUrl, links, fromDepth) => void frontier.discover(fromUrl, links, fromDepth),
    done: (url) => frontier.done(url),
    get stats() {
      return { found: frontier.found, skippedByRobots: frontier.skippedByRobots, skippedByRules: frontier.skippedByRules };
    },
    get robotsBlocked() {
      return frontier.robotsBlocked;
    },
    warnings,
    ...(started.delayMs > 0 ? { delaySeconds: started.delayMs / 1000 } : {}),
    snapshot: () => frontier.snapshot(),
    keyOf: (url) => frontier.keyOf(url),
    maxQueryVariants: frontier.maxQueryVariants,
  };
}
