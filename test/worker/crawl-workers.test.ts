// scrapeline worker: one crawl of serve's on several processes through the frontier they share in
// PostgreSQL, end to end through the built CLI against a real site on 127.0.0.1.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { freshDatabase, postgresMissing } from "../helpers/postgres.js";
import { client, crawledPaths, firstReplica, keyFor, listening, query, startProcess as start, storedBy, until, type Call, type Started } from "../helpers/serve-cluster.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const missing = postgresMissing();
if (missing) console.warn(`crawl worker tests skipped: ${missing}`);

/**
 * A site of SECTIONS section pages linked from the home page, each linking to LEAVES leaves of its
 * own: 1 + SECTIONS + SECTIONS × LEAVES pages. Leaves wait for `leaves` to open; the site counts
 * requests in flight at once and the most there ever were.
 */
const SECTIONS = 12;
const LEAVES = 4;
const ALL_PAGES = 1 + SECTIONS + SECTIONS * LEAVES;
class CountingSite extends FixtureSite {
  inFlight = 0;
  mostInFlight = 0;
  private open!: () => void;
  leaves = new Promise<void>((resolve) => (this.open = resolve));
  constructor(robots = "User-agent: *\nAllow: /\n") {
    super();
    const counted = (body: () => string, hold = false) => async (_req: unknown, res: import("node:http").ServerResponse) => {
      this.inFlight++;
      this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
      if (hold) await this.leaves;
      // The next turn of the event loop: a request overlapping this one is seen overlapping.
      await new Promise((resolve) => setImmediate(resolve));
      this.inFlight--;
      res.writeHead(200, { "content-type": "text/html" }).end(body());
    };
    this.route("/robots.txt", (_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end(robots));
    this.route("/", counted(() => htmlPage("Home", Array.from({ length: SECTIONS }, (_, s) => `<a href="/s${s}">section ${s}</a>`).join(" "))));
    for (let s = 0; s < SECTIONS; s++) {
      this.route(`/s${s}`, counted(() => htmlPage(`Section ${s}`, Array.from({ length: LEAVES }, (_, l) => `<a href="/s${s}/l${l}">leaf ${l}</a>`).join(" "))));
      for (let l = 0; l < LEAVES; l++) this.route(`/s${s}/l${l}`, counted(() => htmlPage(`Leaf ${s}.${l}`, `<p>leaf ${s}.${l}</p><a href="/s${(s + 1) % SECTIONS}">next section</a>`), true));
    }
  }
  release(): void {
    this.open();
  }
}

describe.skipIf(missing !== undefined)("scrapeline worker: one crawl on several processes", () => {
  const processes: Started[] = [];
  const sites: FixtureSite[] = [];
  const run = (args: string[], env?: NodeJS.ProcessEnv) => {
    const started = start(args, env);
    processes.push(started);
    return started;
  };
  afterAll(async () => {
    // SIGTERM: serve passes it on to its server program, which a SIGKILL would leave running.
    for (const p of processes) if (p.child.exitCode === null) p.child.kill("SIGTERM");
    await Promise.all(processes.map((p) => p.exited));
    await Promise.all(sites.map((s) => s.stop()));
  });
  const site = async (robots?: string) => {
    const made = new CountingSite(robots);
    sites.push(made);
    await made.start();
    return made;
  };
  let db = "";
  let key = "";
  let call: Call;
  beforeAll(async () => {
    if (missing) return;
    db = await freshDatabase();
    ({ key, call } = await firstReplica(db, run));
  });

  it("worker refuses a SQLite database, saying what it needs", async () => {
    const worker = start(["worker", "--db", join(ROOT, "data", "never-made.db")]);
    expect(await worker.exited).toBe(2);
    expect(worker.err()).toMatch(/needs a PostgreSQL database \(--db postgres:\/\/…\)/);
  });

  it("a crawl on serve and two workers stores exactly the pages a crawl on serve alone stores, limit included", async () => {
    // serve alone: the leaves open at once.
    const alone = await site();
    alone.release();
    const single = await call("POST", "/v2/crawl", { url: `${alone.url}/`, limit: 200, sitemap: "skip" });
    const limitedSingle = await call("POST", "/v2/crawl", { url: `${alone.url}/`, limit: 9, sitemap: "skip" });
    const singlePaths = await crawledPaths(call, single.body.id);
    const singleLimited = await crawledPaths(call, limitedSingle.body.id);
    expect(singlePaths).toHaveLength(ALL_PAGES);
    expect(new Set(singlePaths).size).toBe(ALL_PAGES);

    // serve and two workers: the leaves wait until both workers have joined the crawl.
    const shared = await site();
    const workers = [run(["worker", "--db", db, "--allow-private-network"]), run(["worker", "--db", db, "--allow-private-network"])];
    const crawl = await call("POST", "/v2/crawl", { url: `${shared.url}/`, limit: 200, sitemap: "skip" });
    expect(crawl.status, JSON.stringify(crawl.body)).toBe(200);
    await until(() => workers.every((w) => w.err().includes(`joined crawl ${crawl.body.id}`)), Boolean);
    shared.release();
    const sharedPaths = await crawledPaths(call, crawl.body.id);
    expect([...sharedPaths].sort()).toEqual([...singlePaths].sort());
    // Each page once, stored by more than one process.
    expect(new Set(sharedPaths).size).toBe(sharedPaths.length);
    await until(() => workers.every((w) => w.err().includes(`left crawl ${crawl.body.id}`)), Boolean);
    const byWorkers = workers.map((w) => storedBy(w.err()));
    expect(byWorkers.reduce((a, b) => a + b, 0), workers.map((w) => w.err()).join("\n")).toBeGreaterThan(0);
    expect(byWorkers.reduce((a, b) => a + b, 0)).toBeLessThan(ALL_PAGES);

    // A limit holds across processes: 9 pages in all, the same 9 as serve alone stores.
    const limited = await call("POST", "/v2/crawl", { url: `${shared.url}/`, limit: 9, sitemap: "skip" });
    expect([...(await crawledPaths(call, limited.body.id))].sort()).toEqual([...singleLimited].sort());
    for (const w of workers) w.child.kill("SIGTERM");
    expect(await Promise.all(workers.map((w) => w.exited))).toEqual([0, 0]);
  });

  it("the crawl's webhook is told of every page once, those the workers stored too, then that it completed", async () => {
    const hooked = await site();
    const received: Array<{ type: string; data: Array<{ metadata: { sourceURL: string } }> }> = [];
    const hook = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        received.push(JSON.parse(body));
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, "127.0.0.1", resolve));
    try {
      const workers = [run(["worker", "--db", db, "--allow-private-network"])];
      const webhook = { url: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook` };
      const crawl = await call("POST", "/v2/crawl", { url: `${hooked.url}/`, limit: 200, sitemap: "skip", webhook });
      expect(crawl.status, JSON.stringify(crawl.body)).toBe(200);
      await until(() => workers[0]!.err().includes(`joined crawl ${crawl.body.id}`), Boolean);
      hooked.release();
      await crawledPaths(call, crawl.body.id);
      await until(() => received.some((r) => r.type === "crawl.completed"), Boolean);
      await until(() => workers[0]!.err().includes(`left crawl ${crawl.body.id}`), Boolean);
      expect(storedBy(workers[0]!.err())).toBeGreaterThan(0);
      const told = received.filter((r) => r.type === "crawl.page").flatMap((r) => r.data.map((d) => new URL(d.metadata.sourceURL).pathname));
      expect(told).toHaveLength(ALL_PAGES);
      expect(new Set(told).size).toBe(ALL_PAGES);
      expect(received.at(-1)!.type).toBe("crawl.completed");
      for (const w of workers) w.child.kill("SIGTERM");
      await Promise.all(workers.map((w) => w.exited));
    } finally {
      await new Promise((resolve) => hook.close(resolve));
    }
  });

  it("robots.txt's Crawl-delay holds across processes: never two requests to the site at once", async () => {
    const polite = await site("User-agent: *\nCrawl-delay: 0.01\n");
    const workers = [run(["worker", "--db", db, "--allow-private-network"]), run(["worker", "--db", db, "--allow-private-network"])];
    const crawl = await call("POST", "/v2/crawl", { url: `${polite.url}/`, limit: 200, sitemap: "skip" });
    await until(() => workers.every((w) => w.err().includes(`joined crawl ${crawl.body.id}`)), Boolean);
    polite.release();
    expect(await crawledPaths(call, crawl.body.id)).toHaveLength(ALL_PAGES);
    await until(() => workers.every((w) => w.err().includes(`left crawl ${crawl.body.id}`)), Boolean);
    expect(workers.map((w) => storedBy(w.err())).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect(polite.mostInFlight).toBe(1);
    for (const w of workers) w.child.kill("SIGTERM");
    await Promise.all(workers.map((w) => w.exited));
  });

  it("a worker killed with -9 mid-crawl loses its pages to the others when its lease ends: every page is stored once", async () => {
    const crash = await site();
    const worker = run(["worker", "--db", db, "--allow-private-network", "--lease-seconds", "1"]);
    const crawl = await call("POST", "/v2/crawl", { url: `${crash.url}/`, limit: 200, sitemap: "skip" });
    await until(() => worker.err().includes(`joined crawl ${crawl.body.id}`), Boolean);
    const pid = worker.child.pid!;
    // The worker holds pages (the leaves it asked for wait at the site) when it is killed.
    await until(() => query<{ n: string }>(db, "SELECT COUNT(*) AS n FROM crawl_frontier WHERE job_id = $1 AND state = 'claimed' AND claimed_by LIKE $2", [crawl.body.id, `%:${pid}:%`]), (r) => Number(r[0]!.n) > 0);
    worker.child.kill("SIGKILL");
    await worker.exited;
    crash.release();
    const paths = await crawledPaths(call, crawl.body.id);
    expect(paths).toHaveLength(ALL_PAGES);
    expect(new Set(paths).size).toBe(ALL_PAGES);
  });

  it.skipIf(!existsSync("/proc/self/task"))("a replica killed with -9 mid-crawl: another replica carries its crawl on and finishes it, every page once", async () => {
    const orphaned = await site();
    // Its claims on the crawl last as long as its replica lease.
    const leader = run(["serve", "--port", "0", "--db", db, "--allow-private-network"], { SCRAPELINE_REPLICA_LEASE: "1s" });
    const crawl = await client((await listening(leader)).base, key)("POST", "/v2/crawl", { url: `${orphaned.url}/`, limit: 200, sitemap: "skip" });
    expect(crawl.status, JSON.stringify(crawl.body)).toBe(200);
    // The leader holds pages (the leaves wait at the site) when its server is killed.
    await until(() => query<{ n: string }>(db, "SELECT COUNT(*) AS n FROM crawl_frontier WHERE job_id = $1 AND state = 'claimed'", [crawl.body.id]), (r) => Number(r[0]!.n) > 0);
    const server = Number(readFileSync(`/proc/${leader.child.pid}/task/${leader.child.pid}/children`, "utf8").trim().split(/\s+/)[0]);
    process.kill(server, "SIGKILL");
    await leader.exited;
    orphaned.release();
    const paths = await crawledPaths(call, crawl.body.id);
    expect(paths).toHaveLength(ALL_PAGES);
    expect(new Set(paths).size).toBe(ALL_PAGES);
  });

  it("a page whose every taker is killed -9 is given up after three, listed in the crawl's errors, and the crawl completes", async () => {
    // The leader (one page at a time, two taken) holds /a0 and /a1, which wait at the site: the link
    // to /poison (found on /b) is taken by the workers alone, and each one that asks for it is killed.
    const poisoned = new FixtureSite();
    sites.push(poisoned);
    let open!: () => void;
    const held = new Promise<void>((resolve) => (open = resolve));
    const page = (body: string) => (_req: unknown, res: import("node:http").ServerResponse) => res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Page", body));
    poisoned.route("/", page('<a href="/a0">a0</a> <a href="/a1">a1</a> <a href="/b">b</a>'));
    for (const path of ["/a0", "/a1"]) poisoned.route(path, async (req, res) => (await held, page("<p>held</p>")(req, res)));
    poisoned.route("/b", page('<a href="/poison">poison</a>'));
    // Never answered: the process that asked is killed.
    poisoned.route("/poison", () => new Promise(() => undefined));
    await poisoned.start();
    const leader = run(["serve", "--port", "0", "--db", db, "--allow-private-network", "--concurrency", "1", "--per-host-concurrency", "8"]);
    const leaderCall = client((await listening(leader)).base, key);
    // The held pages must not reach their timeout (30 s by default) on a busy machine: the leader would take /b and /poison next.
    const crawl = await leaderCall("POST", "/v2/crawl", { url: `${poisoned.url}/`, limit: 200, sitemap: "skip", scrapeOptions: { timeout: 300_000 } });
    expect(crawl.status, JSON.stringify(crawl.body)).toBe(200);
    const claimedUrls = () => query<{ url: string }>(db, "SELECT url FROM crawl_frontier WHERE job_id = $1 AND state = 'claimed' ORDER BY url", [crawl.body.id]);
    expect((await until(claimedUrls, (r) => r.length === 2)).map((r) => r.url)).toEqual([`${poisoned.url}/a0`, `${poisoned.url}/a1`]);
    const workers = [1, 2, 3].map(() => run(["worker", "--db", db, "--allow-private-network", "--lease-seconds", "1"]));
    // Whoever holds /poison is killed, until three claims of it have ended. On a busy machine a worker
    // can also stall past its 1 s lease and lose the page alive: that claim ended too, and counts alike.
    const pidOf = (holder: string | null) => Number(holder?.split(":").at(-2));
    const killed = new Set<number>();
    type Poison = { state: string; claimed_by: string | null; attempts: number };
    // Worth a look: given up; or held by a live taker whose request reached the site (one request
    // per claim), to be killed; or held by a killed one after the third claim.
    const settled = (r: Poison | undefined) =>
      r !== undefined && (r.state === "done" || (r.state === "claimed" && (killed.has(pidOf(r.claimed_by)) ? r.attempts >= 3 : (poisoned.hits.get("/poison") ?? 0) >= r.attempts)));
    for (;;) {
      const [poison] = await until(
        () => query<Poison>(db, "SELECT state, claimed_by, attempts FROM crawl_frontier WHERE job_id = $1 AND url = $2", [crawl.body.id, `${poisoned.url}/poison`]),
        ([r]) => settled(r),
      );
      const pid = pidOf(poison!.claimed_by);
      // Given up already (by a worker left alive), or its third claim ended with its killed taker.
      if (poison!.state === "done" || killed.has(pid)) break;
      expect(workers.map((w) => w.child.pid)).toContain(pid);
      killed.add(pid);
      process.kill(pid, "SIGKILL");
      await workers.find((w) => w.child.pid === pid)!.exited;
    }
    // The leader, free again, gives the page up at its next claim (if no worker did).
    open();
    const done = await until(() => leaderCall("GET", `/v2/crawl/${crawl.body.id}`), (r) => r.body.status !== "scraping");
    expect(done.body.status).toBe("completed");
    expect(poisoned.hits.get("/poison")).toBe(3);
    const errors = await leaderCall("GET", `/v2/crawl/${crawl.body.id}/errors`);
    expect(errors.body.errors).toEqual([
      expect.objectContaining({ url: `${poisoned.url}/poison`, error: "given up after its claims ended 3 times: the processes that took it stopped before finishing it" }),
    ]);
    expect([...(await crawledPaths(leaderCall, crawl.body.id))].sort()).toEqual(["/", "/a0", "/a1", "/b"]);
  });

  it("a path's query variants are counted across processes: the crawl takes as many as on one process", async () => {
    // Six sections, each with ten variants of /cal of its own; the leader takes two sections, the workers the rest.
    const calendar = new FixtureSite();
    sites.push(calendar);
    let open!: () => void;
    const joined = new Promise<void>((resolve) => (open = resolve));
    const html = (res: import("node:http").ServerResponse, body: string) => res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Page", body));
    calendar.route("/", (_req, res) => html(res, [0, 1, 2, 3, 4, 5].map((n) => `<a href="/s${n}">s${n}</a>`).join(" ")));
    for (let n = 0; n < 6; n++) calendar.route(`/s${n}`, async (_req, res) => (await joined, html(res, Array.from({ length: 10 }, (_, d) => `<a href="/cal?d=${n}-${d}">day</a>`).join(" "))));
    calendar.route("/cal", (_req, res) => html(res, "<p>a day</p>"));
    await calendar.start();
    const leader = run(["serve", "--port", "0", "--db", db, "--allow-private-network", "--concurrency", "1", "--per-host-concurrency", "8"]);
    const leaderCall = client((await listening(leader)).base, key);
    const workers = [run(["worker", "--db", db, "--allow-private-network"]), run(["worker", "--db", db, "--allow-private-network"])];
    const crawl = await leaderCall("POST", "/v2/crawl", { url: `${calendar.url}/`, limit: 200, sitemap: "skip" });
    await until(() => workers.every((w) => w.err().includes(`joined crawl ${crawl.body.id}`)), Boolean);
    open();
    const paths = await crawledPaths(leaderCall, crawl.body.id);
    expect(paths.filter((p) => p === "/cal")).toHaveLength(10);
    for (const w of workers) w.child.kill("SIGTERM");
    await Promise.all(workers.map((w) => w.exited));
  });

  it("a crawl cancelled on a replica stops the workers at their next claim", async () => {
    const cancelled = await site();
    const worker = run(["worker", "--db", db, "--allow-private-network"]);
    const other = run(["serve", "--port", "0", "--db", db, "--allow-private-network"]);
    const key = await keyFor(db);
    const otherCall = client((await listening(other)).base, key);
    const crawl = await otherCall("POST", "/v2/crawl", { url: `${cancelled.url}/`, limit: 200, sitemap: "skip" });
    await until(() => worker.err().includes(`joined crawl ${crawl.body.id}`), Boolean);
    await until(() => cancelled.inFlight, (n) => n > 0);
    // Cancelled through the replica that did not start it.
    expect((await call("DELETE", `/v2/crawl/${crawl.body.id}`)).status).toBe(200);
    cancelled.release();
    await until(() => worker.err().includes(`left crawl ${crawl.body.id}`), Boolean);
    const status = await otherCall("GET", `/v2/crawl/${crawl.body.id}`);
    expect(status.body.status).toBe("cancelled");
    const requested = [...cancelled.hits.entries()].filter(([path]) => path !== "/robots.txt").length;
    expect(requested).toBeLessThan(ALL_PAGES);
    // Once the replica leading it has ended the crawl, no process holds any of its pages.
    await until(() => query<{ state: string }>(db, "SELECT state FROM crawl_jobs WHERE job_id = $1", [crawl.body.id]), (r) => r[0]?.state === "ended");
    const claimed = await query<{ n: string }>(db, "SELECT COUNT(*) AS n FROM crawl_frontier WHERE job_id = $1 AND state = 'claimed'", [crawl.body.id]);
    expect(Number(claimed[0]!.n)).toBe(0);
    worker.child.kill("SIGTERM");
    expect(await worker.exited).toBe(0);
  });
});
