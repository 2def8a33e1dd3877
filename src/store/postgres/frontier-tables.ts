// Shared crawls' frontier and per-host politeness on PostgreSQL (the thread's side; ../tables.ts says what each does).
import type { CrawlFrontierTables, FrontierPage } from "../crawl-frontier.js";
import type { OnThread } from "./on-thread.js";
import { saveFailure } from "./runs.js";
import { column, row, rows, run, value, type Tx } from "./sql.js";

/** The database's clock in ms since the epoch: leases of processes on several machines end by one clock. */
const NOW_MS = "(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::bigint";

/**
 * Claims of one page that may end without the page finished (each process that took it was gone
 * before it was done) before the page is given up, recorded as a failure of the crawl's step, rather
 * than handed to the next process: a page that brings down every process fetching it does not go
 * round for ever. A page given back (releasePages, a process stopping) does not count.
 */
export const MAX_PAGE_CLAIMS = 3;

/** How long a process whose host slot is taken waits before it asks again, in ms. */
const BUSY_HOST_WAIT_MS = 25;

const toPage = (r: Record<string, unknown>): FrontierPage => ({ key: r.url_key as string, url: r.url as string, depth: r.depth as number, linksOnly: r.links_only as boolean });

export const FRONTIER_TABLES: OnThread<CrawlFrontierTables> = {
  async openCrawl(tx, crawl) {
    await run(
      tx,
      `INSERT INTO crawl_jobs (job_id, run_id, step_id, page_limit, leader, leader_until) VALUES ($1, $2, $3, $4, $5, ${NOW_MS} + $6)`,
      [crawl.jobId, crawl.runId, crawl.stepId, crawl.limit, crawl.holder, crawl.leaseMs],
    );
  },
  async addPages(tx, jobId, pages, options = {}) {
    if (pages.length === 0) return;
    // The crawl's row is the lock: processes adding pages to one crawl take turns, so its count is exact.
    const crawl = await row(tx, "SELECT found, page_limit FROM crawl_jobs WHERE job_id = $1 FOR UPDATE", [jobId]);
    if (!crawl) return;
    let room = (crawl.page_limit as number) - (crawl.found as number);
    const known = new Set(await column<string>(tx, "SELECT url_key FROM crawl_frontier WHERE job_id = $1 AND url_key = ANY($2)", [jobId, pages.map((p) => p.key)]));
    const variants = await queryVariants(tx, jobId, options.maxQueryVariants === undefined ? [] : pages.filter((p) => !known.has(p.key)));
    const added: FrontierPage[] = [];
    for (const page of pages) {
      if (known.has(page.key)) continue;
      if (!page.linksOnly && room <= 0) continue;
      const path = queryPath(page.key);
      if (path !== undefined && variants.has(path)) {
        if (variants.get(path)! >= options.maxQueryVariants!) continue;
        variants.set(path, variants.get(path)! + 1);
      }
      known.add(page.key);
      added.push(page);
      if (!page.linksOnly) room--;
    }
    if (variants.size > 0) {
      await run(
        tx,
        `INSERT INTO crawl_query_paths (job_id, path, variants) SELECT $1, p, v FROM unnest($2::text[], $3::int[]) AS t(p, v)
         ON CONFLICT (job_id, path) DO UPDATE SET variants = excluded.variants`,
        [jobId, [...variants.keys()], [...variants.values()]],
      );
    }
    if (added.length === 0) return;
    await run(
      tx,
      `INSERT INTO crawl_frontier (job_id, url_key, url, depth, links_only, state)
       SELECT $1, k, u, d, l, 'queued' FROM unnest($2::text[], $3::text[], $4::int[], $5::bool[]) WITH ORDINALITY AS t(k, u, d, l, n) ORDER BY n`,
      [jobId, added.map((p) => p.key), added.map((p) => p.url), added.map((p) => p.depth), added.map((p) => p.linksOnly)],
    );
    await run(tx, "UPDATE crawl_jobs SET found = found + $1 WHERE job_id = $2", [added.filter((p) => !p.linksOnly).length, jobId]);
  },
  async claim(tx, jobId, holder, max, leaseMs) {
    const crawl = await row(tx, "SELECT c.state, c.found, c.run_id, c.step_id, j.status FROM crawl_jobs c JOIN serve_jobs j ON j.id = c.job_id WHERE c.job_id = $1", [jobId]);
    // Counted only when no page is claimed (whether the crawl is over): a claim that takes pages does not scan the queue.
    const open = async () => Number((await row(tx, "SELECT COUNT(*) AS n FROM crawl_frontier WHERE job_id = $1 AND state IN ('queued', 'claimed')", [jobId]))!.n);
    if (!crawl || crawl.state !== "running" || crawl.status !== "scraping") return { pages: [], state: "stopped", found: (crawl?.found as number) ?? 0, open: crawl ? await open() : 0 };
    // One reading of the clock for the whole claim: a lease ending between two readings would be
    // seen alive by the give-up and ended by the claim, which would then take the page once more.
    const now = Number(await value<string>(tx, `SELECT ${NOW_MS}`));
    await giveUpPages(tx, jobId, crawl.run_id as number, crawl.step_id as string, now);
    const claimed = await rows(
      tx,
      `UPDATE crawl_frontier f SET state = 'claimed', claimed_by = $2, lease_until = $5::bigint + $4, attempts = f.attempts + 1
       FROM (SELECT url_key FROM crawl_frontier
             WHERE job_id = $1 AND (state = 'queued' OR (state = 'claimed' AND lease_until < $5))
             ORDER BY seq LIMIT $3 FOR UPDATE SKIP LOCKED) picked
       WHERE f.job_id = $1 AND f.url_key = picked.url_key
       RETURNING f.url_key, f.url, f.depth, f.links_only, f.seq`,
      [jobId, holder, max, leaseMs, now],
    );
    claimed.sort((a, b) => Number(a.seq) - Number(b.seq));
    return { pages: claimed.map(toPage), state: "running", found: crawl.found as number, open: claimed.length > 0 ? claimed.length : await open() };
  },
  async finishPages(tx, jobId, holder, keys) {
    if (keys.length === 0) return;
    await run(tx, "UPDATE crawl_frontier SET state = 'done', claimed_by = NULL, lease_until = NULL WHERE job_id = $1 AND url_key = ANY($2) AND (claimed_by = $3 OR state = 'queued')", [jobId, keys, holder]);
  },
  /** A page given back was not lost with its process: its claim does not count towards MAX_PAGE_CLAIMS. */
  async releasePages(tx, jobId, holder, keys) {
    if (keys.length === 0) return;
    await run(tx, "UPDATE crawl_frontier SET state = 'queued', claimed_by = NULL, lease_until = NULL, attempts = attempts - 1 WHERE job_id = $1 AND url_key = ANY($2) AND claimed_by = $3 AND state = 'claimed'", [jobId, keys, holder]);
  },
  async heartbeat(tx, holder, leaseMs) {
    await run(tx, `UPDATE crawl_frontier SET lease_until = ${NOW_MS} + $2 WHERE claimed_by = $1 AND state = 'claimed'`, [holder, leaseMs]);
    await run(tx, `UPDATE crawl_host_slots SET lease_until = ${NOW_MS} + $2 WHERE holder = $1`, [holder, leaseMs]);
    await run(tx, `UPDATE crawl_jobs SET leader_until = ${NOW_MS} + $2 WHERE leader = $1 AND state = 'running'`, [holder, leaseMs]);
  },
  async keepHeaderValues(tx, jobId, sealed) {
    await run(tx, "INSERT INTO serve_job_headers (job_id, sealed) VALUES ($1, $2)", [jobId, sealed]);
  },
  async headerValues(tx, jobId) {
    return value<string>(tx, "SELECT sealed FROM serve_job_headers WHERE job_id = $1", [jobId]);
  },
  async isShared(tx, jobId) {
    return (await rows(tx, "SELECT 1 FROM crawl_jobs WHERE job_id = $1", [jobId])).length > 0;
  },
  async runningCrawls(tx) {
    const found = await rows(
      tx,
      `SELECT c.job_id, c.run_id, c.step_id, c.leader_until < ${NOW_MS} AS gone FROM crawl_jobs c JOIN serve_jobs j ON j.id = c.job_id
       WHERE c.state = 'running' AND j.status = 'scraping' ORDER BY j.created_at`,
    );
    return found.map((r) => ({ jobId: r.job_id as string, runId: r.run_id as number, stepId: r.step_id as string, leaderGone: r.gone as boolean }));
  },
  async endCrawl(tx, jobId, options = {}) {
    const condition = options.takeOver ? ` AND leader_until < ${NOW_MS}` : "";
    const ended = await rows(tx, `UPDATE crawl_jobs SET state = 'ended' WHERE job_id = $1 AND state = 'running'${condition} RETURNING job_id`, [jobId]);
    return ended.length > 0;
  },
  async takeHost(tx, host, holder, limit, intervalMs, leaseMs) {
    await run(tx, "INSERT INTO crawl_hosts (host, next_at) VALUES ($1, 0) ON CONFLICT (host) DO NOTHING", [host]);
    // The host's row is the lock: processes starting requests to one host take turns.
    const found = (await row(tx, `SELECT next_at, ${NOW_MS} AS now FROM crawl_hosts WHERE host = $1 FOR UPDATE`, [host]))!;
    const now = Number(found.now);
    const nextAt = Number(found.next_at);
    if (nextAt > now) return { waitMs: nextAt - now };
    await run(tx, "DELETE FROM crawl_host_slots WHERE host = $1 AND lease_until < $2", [host, now]);
    const inFlight = Number((await row(tx, "SELECT COUNT(*) AS n FROM crawl_host_slots WHERE host = $1", [host]))!.n);
    if (inFlight >= limit) return { waitMs: BUSY_HOST_WAIT_MS };
    const slot = Number((await row(tx, "INSERT INTO crawl_host_slots (host, holder, lease_until) VALUES ($1, $2, $3) RETURNING id", [host, holder, now + leaseMs]))!.id);
    if (intervalMs > 0) await run(tx, "UPDATE crawl_hosts SET next_at = $1 WHERE host = $2", [now + intervalMs, host]);
    return { slot };
  },
  async releaseHost(tx, slot) {
    await run(tx, "DELETE FROM crawl_host_slots WHERE id = $1", [slot]);
  },
  async pauseHost(tx, host, forMs) {
    await run(tx, `INSERT INTO crawl_hosts (host, next_at) VALUES ($1, ${NOW_MS} + $2) ON CONFLICT (host) DO UPDATE SET next_at = GREATEST(crawl_hosts.next_at, excluded.next_at)`, [host, forMs]);
  },
};

/**
 * Pages whose last claim ended (by `now`) after MAX_PAGE_CLAIMS claims are done, each recorded as a
 * failure of the crawl's step. SKIP LOCKED: a page another process is giving up at once is its own.
 */
async function giveUpPages(tx: Tx, jobId: string, runId: number, stepId: string, now: number): Promise<void> {
  const lost = await column<string>(
    tx,
    `UPDATE crawl_frontier f SET state = 'done', claimed_by = NULL, lease_until = NULL
     FROM (SELECT url_key FROM crawl_frontier
           WHERE job_id = $1 AND state = 'claimed' AND lease_until < $2 AND attempts >= $3
           FOR UPDATE SKIP LOCKED) ended
     WHERE f.job_id = $1 AND f.url_key = ended.url_key
     RETURNING f.url`,
    [jobId, now, MAX_PAGE_CLAIMS],
  );
  const error = `given up after its claims ended ${MAX_PAGE_CLAIMS} times: the processes that took it stopped before finishing it`;
  for (const url of lost) await saveFailure(tx, { runId, stepId, url, kind: "internal", error });
}

/** The part of a page's key before its query string, when it has one. */
function queryPath(key: string): string | undefined {
  const query = key.indexOf("?");
  return query === -1 ? undefined : key.slice(0, query);
}

/** How many keys with a query string the crawl accepted of each path of `pages` that has one. */
async function queryVariants(tx: Tx, jobId: string, pages: readonly FrontierPage[]): Promise<Map<string, number>> {
  const paths = [...new Set(pages.map((p) => queryPath(p.key)).filter((p) => p !== undefined))];
  if (paths.length === 0) return new Map();
  const counted = await rows(tx, "SELECT path, variants FROM crawl_query_paths WHERE job_id = $1 AND path = ANY($2)", [jobId, paths]);
  const variants = new Map(paths.map((p) => [p, 0]));
  for (const r of counted) variants.set(r.path as string, r.variants as number);
  return variants;
}
