// The seam of crawls several processes share (scrapeline worker, serve replicas): PostgreSQL implements it.

/** A page a shared crawl accepted: its dedup key, its URL, how many links from a seed, and whether it is fetched for its links only. */
export interface FrontierPage {
  key: string;
  url: string;
  depth: number;
  linksOnly: boolean;
}

/** What a claim found of its crawl besides the pages it took. */
export interface FrontierClaim {
  pages: FrontierPage[];
  /** `running`, or why no page is handed out any more: the job was cancelled or ended. */
  state: "running" | "stopped";
  /** Pages the crawl accepted (at most its limit; linksOnly pages not counted). */
  found: number;
  /** Pages not done yet, queued or claimed by a process (maybe one that is gone, until its lease ends): counted when none was claimed, else at least those claimed. */
  open: number;
}

/** A shared crawl some process may work on. */
export interface SharedCrawl {
  jobId: string;
  runId: number;
  stepId: string;
  /** Whether its leader's lease has ended (its process is gone): another process may finish it. */
  leaderGone: boolean;
}

/**
 * The frontier of crawls that several processes work on (`scrapeline worker`), and per-host
 * politeness counted across them. PostgreSQL only: claims are taken with FOR UPDATE SKIP LOCKED,
 * and leases end by the database's clock, so a process killed mid-page loses its claims to the
 * others. SQLite is one process's database (run and serve keep a crawl's frontier in memory) and
 * does not implement these.
 */
export interface CrawlFrontierTables {
  /** Records a shared crawl of a job led by `holder`. */
  openCrawl(crawl: { jobId: string; runId: number; stepId: string; limit: number; holder: string; leaseMs: number }): void;
  /**
   * Adds pages not in the crawl yet (by key), in order, while it has accepted fewer than its limit
   * and, with `maxQueryVariants`, fewer than that many keys with a query string of the page's path
   * (the part of its key before `?`): both counted under a lock on the crawl, so processes adding
   * at once never pass them.
   *
   * addPages, finishPages and releaseHost are sent without waiting for their answer (a page's
   * calls would otherwise keep its process waiting on the database between pages): calls made after
   * them see them, and a failure of one is thrown by the store's next call.
   */
  addPages(jobId: string, pages: readonly FrontierPage[], options?: { maxQueryVariants?: number }): void;
  /** Claims up to `max` pages, first accepted first: queued ones, or claimed ones whose lease ended. None once the job is cancelled or ended. */
  claim(jobId: string, holder: string, max: number, leaseMs: number): FrontierClaim;
  /** Marks pages done (fetched, stored or failed for good). */
  finishPages(jobId: string, holder: string, keys: readonly string[]): void;
  /** Gives claimed pages back to the queue (a process stopping before it fetched them). */
  releasePages(jobId: string, holder: string, keys: readonly string[]): void;
  /** Extends the leases of everything `holder` holds: its claimed pages, host slots and the crawls it leads. */
  heartbeat(holder: string, leaseMs: number): void;
  /** Keeps a serve job's header values (sealed: the store never sees them in clear) beside the job. */
  keepHeaderValues(jobId: string, sealed: string): void;
  /** A serve job's sealed header values, when they were kept (until the job ends: finishJob deletes them). */
  headerValues(jobId: string): string | undefined;
  /** Whether the job's crawl is (or was) shared: its frontier's processes finish it. */
  isShared(jobId: string): boolean;
  /** Crawls still running whose job is running too. */
  runningCrawls(): SharedCrawl[];
  /** Ends a crawl (its leader finished it, or `takeOver`: its leader is gone and this process finishes it). False when it had ended already, or its leader is alive. */
  endCrawl(jobId: string, options?: { takeOver?: boolean }): boolean;
  /**
   * Takes a request slot for `host` when fewer than `limit` are in flight across processes and
   * its next allowed time has come (then moved `intervalMs` on); otherwise says how long to wait.
   */
  takeHost(host: string, holder: string, limit: number, intervalMs: number, leaseMs: number): { slot: number } | { waitMs: number };
  releaseHost(slot: number): void;
  /** No request to `host` starts before `untilMs` from now (a 429's or 503's Retry-After). */
  pauseHost(host: string, forMs: number): void;
}
