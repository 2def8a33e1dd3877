import type { CrawlFrontierPort } from "../../core/index.js";
import { type FrontierHolder, SharedFrontier } from "./shared-frontier.js";

/** A batch's URLs as a frontier: each handed out once, in order, at depth 0; no link is followed. */
function urlList(urls: readonly string[]): CrawlFrontierPort {
  let at = 0;
  return {
    next: () => (at < urls.length ? { url: urls[at++]!, depth: 0 } : undefined),
    discover: () => undefined,
    done: () => undefined,
    stats: { found: urls.length, skippedByRobots: 0, skippedByRules: 0 },
    robotsBlocked: [],
    warnings: [],
    snapshot: () => ({ urls: urls.length }),
  };
}

/**
 * A batch scrape's URLs kept in the store's shared frontier, as a shared crawl's pages are: the
 * process leading it adds them all (its frontier's limit is their count), and every process
 * working on it claims them from there, each URL handed to one process at a time.
 */
export function sharedBatchFrontier(holder: FrontierHolder, jobId: string, urls: readonly string[], options: { leads: boolean; batch: number }): SharedFrontier {
  return new SharedFrontier(holder, jobId, urlList(options.leads ? urls : []), { sitemap: "skip" }, options);
}
