// scrapeline worker and serve replicas on one batch scrape: its URLs in the frontier they share in
// PostgreSQL, end to end through the built CLI against a real site on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { freshDatabase, postgresMissing } from "../helpers/postgres.js";
import { client, firstReplica, keyFor, listening, query, receiver, startProcess, storedBy, until, type Call, type Started } from "../helpers/serve-cluster.js";

const missing = postgresMissing();
if (missing) console.warn(`batch worker tests skipped: ${missing}`);

const URLS = 60;

/** A site of URLS pages (/b/0 …), each held until the test releases them: a batch of them keeps running. */
class HeldSite extends FixtureSite {
  private open!: () => void;
  private readonly gate = new Promise<void>((resolve) => (this.open = resolve));
  constructor() {
    super();
    for (let i = 0; i < URLS; i++) {
      this.route(`/b/${i}`, async (_req, res) => {
        await this.gate;
        res.writeHead(200, { "content-type": "text/html" }).end(htmlPage(`Page ${i}`, `<p>page ${i}</p>`));
      });
    }
  }
  urls(): string[] {
    return Array.from({ length: URLS }, (_, i) => `${this.url}/b/${i}`);
  }
  release(): void {
    this.open();
  }
}

/** The finished batch's status, asserted completed with every URL stored once: their paths. */
async function completedPaths(call: Call, id: string): Promise<string[]> {
  const done = await until(() => call("GET", `/v2/batch/scrape/${id}`), (r) => r.body.status !== "scraping");
  expect(done.body.status, JSON.stringify(done.body).slice(0, 500)).toBe("completed");
  expect(done.body).toMatchObject({ completed: URLS, total: URLS });
  return done.body.data.map((d: { metadata: { sourceURL: string } }) => new URL(d.metadata.sourceURL).pathname);
}

const everyPath = Array.from({ length: URLS }, (_, i) => `/b/${i}`).sort();

/** Rows of the job webhooks' outbox of a job for one event: every message told is recorded there before it is sent. */
const recorded = async (db: string, id: string, event: string) => Number((await query<{ n: string }>(db, "SELECT COUNT(*) AS n FROM serve_job_webhooks WHERE job_id = $1 AND event = $2", [id, event]))[0]!.n);

describe.skipIf(missing !== undefined)("scrapeline worker: one batch scrape on several processes", () => {
  const processes: Started[] = [];
  const sites: HeldSite[] = [];
  const hooks: Array<{ close: () => Promise<void> }> = [];
  const run = (args: string[], env?: NodeJS.ProcessEnv) => {
    const started = startProcess(args, env);
    processes.push(started);
    return started;
  };
  const worker = (db: string, ...more: string[]) => run(["worker", "--db", db, "--allow-private-network", ...more]);
  afterAll(async () => {
    // SIGTERM: serve passes it on to its server program, which a SIGKILL would leave running.
    for (const p of processes) if (p.child.exitCode === null) p.child.kill("SIGTERM");
    await Promise.all(processes.map((p) => p.exited));
    for (const s of sites) s.release();
    await Promise.all([...sites.map((s) => s.stop()), ...hooks.map((h) => h.close())]);
  });
  const site = async () => {
    const made = new HeldSite();
    sites.push(made);
    await made.start();
    return made;
  };
  const hook = async () => {
    const made = await receiver();
    hooks.push(made);
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

  it("with no worker running, a batch on PostgreSQL runs on serve alone: each page once with its scrapeId, a failed URL in its errors", async () => {
    const held = await site();
    held.route("/gone", (req) => req.socket.destroy());
    held.release();
    const urls = [...held.urls().slice(0, 10), `${held.url}/gone`];
    const batch = await call("POST", "/v2/batch/scrape", { urls, maxConcurrency: 4 });
    const id = batch.body.id as string;
    const done = await until(() => call("GET", `/v2/batch/scrape/${id}`), (r) => r.body.status !== "scraping");
    expect(done.body).toMatchObject({ status: "completed", completed: 10 });
    const paths = done.body.data.map((d: { metadata: { sourceURL: string } }) => new URL(d.metadata.sourceURL).pathname);
    expect([...paths].sort()).toEqual(held.urls().slice(0, 10).map((u) => new URL(u).pathname).sort());
    const scrapeIds = new Set(done.body.data.map((d: { metadata: { scrapeId?: string } }) => d.metadata.scrapeId));
    expect(scrapeIds.size).toBe(10);
    expect(scrapeIds.has(undefined)).toBe(false);
    const errors = await call("GET", `/v2/batch/scrape/${id}/errors`);
    expect(errors.body.errors.map((e: { url: string }) => e.url)).toEqual([`${held.url}/gone`]);
    // It went through the shared frontier, which no other process joined.
    expect(await query(db, "SELECT state FROM crawl_jobs WHERE job_id = $1", [id])).toEqual([{ state: "ended" }]);
  });

  it("a 60-URL batch on serve and two workers stores each page once, tells its webhook of each once, and completes with 60", async () => {
    const held = await site();
    const told = await hook();
    const workers = [worker(db), worker(db)];
    // Four pages in flight per process: the workers find URLs left to claim when they join.
    const batch = await call("POST", "/v2/batch/scrape", { urls: held.urls(), maxConcurrency: 4, webhook: { url: told.url } });
    expect(batch.status, JSON.stringify(batch.body)).toBe(200);
    const id = batch.body.id as string;
    await until(() => workers.every((w) => w.err().includes(`joined batch ${id}`)), Boolean);
    held.release();
    const paths = await completedPaths(call, id);
    expect([...paths].sort()).toEqual(everyPath);
    await until(() => workers.every((w) => w.err().includes(`left batch ${id}`)), Boolean);
    const byWorkers = workers.map((w) => storedBy(w.err())).reduce((a, b) => a + b, 0);
    expect(byWorkers, workers.map((w) => w.err()).join("\n")).toBeGreaterThan(0);
    expect(byWorkers).toBeLessThan(URLS);
    // The webhook hears of every page once, those the workers stored too, then that the batch completed.
    await until(() => told.received.some((m) => m.type === "batch_scrape.completed"), Boolean);
    const pages = told.received.filter((m) => m.type === "batch_scrape.page").flatMap((m) => m.data.map((d: { metadata: { sourceURL: string } }) => new URL(d.metadata.sourceURL).pathname));
    expect([...pages].sort()).toEqual(everyPath);
    expect(told.received.at(-1)!.type).toBe("batch_scrape.completed");
    for (const w of workers) w.child.kill("SIGTERM");
    expect(await Promise.all(workers.map((w) => w.exited))).toEqual([0, 0]);
  });

  it("a worker killed with -9 mid-batch loses its URLs to the others when its lease ends: every page is stored once", async () => {
    const held = await site();
    const doomed = worker(db, "--lease-seconds", "1");
    const batch = await call("POST", "/v2/batch/scrape", { urls: held.urls(), maxConcurrency: 4 });
    const id = batch.body.id as string;
    await until(() => doomed.err().includes(`joined batch ${id}`), Boolean);
    const pid = doomed.child.pid!;
    // The worker holds URLs (their pages wait at the site) when it is killed.
    await until(() => query<{ n: string }>(db, "SELECT COUNT(*) AS n FROM crawl_frontier WHERE job_id = $1 AND state = 'claimed' AND claimed_by LIKE $2", [id, `%:${pid}:%`]), (r) => Number(r[0]!.n) > 0);
    doomed.child.kill("SIGKILL");
    await doomed.exited;
    held.release();
    const paths = await completedPaths(call, id);
    expect([...paths].sort()).toEqual(everyPath);
  });

  it("a batch cancelled on a replica stops the workers at their next claim", async () => {
    const held = await site();
    const helper = worker(db);
    const other = run(["serve", "--port", "0", "--db", db, "--allow-private-network"]);
    const otherCall = client((await listening(other)).base, key);
    const batch = await otherCall("POST", "/v2/batch/scrape", { urls: held.urls(), maxConcurrency: 2 });
    const id = batch.body.id as string;
    await until(() => helper.err().includes(`joined batch ${id}`), Boolean);
    // Cancelled through the replica that did not start it, while pages wait at the site.
    expect((await call("DELETE", `/v2/batch/scrape/${id}`)).status).toBe(200);
    held.release();
    await until(() => helper.err().includes(`left batch ${id}`), Boolean);
    expect((await otherCall("GET", `/v2/batch/scrape/${id}`)).body.status).toBe("cancelled");
    const requested = [...held.hits.keys()].filter((path) => path.startsWith("/b/")).length;
    expect(requested).toBeLessThan(URLS);
    await until(() => query<{ state: string }>(db, "SELECT state FROM crawl_jobs WHERE job_id = $1", [id]), (r) => r[0]?.state === "ended");
    helper.child.kill("SIGTERM");
    other.child.kill("SIGTERM");
    expect(await helper.exited).toBe(0);
  });

  it("a batch sent with header values is not shared (they are not stored): serve fetches it alone", async () => {
    const held = await site();
    held.release();
    const helper = worker(db);
    const batch = await call("POST", "/v2/batch/scrape", { urls: held.urls().slice(0, 3), headers: { authorization: "Bearer site-token" } });
    expect(batch.status, JSON.stringify(batch.body)).toBe(200);
    const done = await until(() => call("GET", `/v2/batch/scrape/${batch.body.id}`), (r) => r.body.status !== "scraping");
    expect(done.body).toMatchObject({ status: "completed", completed: 3 });
    expect(await query(db, "SELECT job_id FROM crawl_jobs WHERE job_id = $1", [batch.body.id])).toEqual([]);
    expect(helper.err()).not.toContain(batch.body.id);
    helper.child.kill("SIGTERM");
    await helper.exited;
  });

  it("a replica killed with -9 mid-batch: another replica finishes its batch, whose webhook hears batch_scrape.completed once", async () => {
    const held = await site();
    const told = await hook();
    // Its claims on the batch last as long as its replica lease.
    const leader = run(["serve", "--port", "0", "--db", db, "--allow-private-network"], { SCRAPELINE_REPLICA_LEASE: "1s" });
    const { base, pid } = await listening(leader);
    const batch = await client(base, key)("POST", "/v2/batch/scrape", { urls: held.urls(), maxConcurrency: 4, webhook: { url: told.url, events: ["started", "completed", "failed", "cancelled"] } });
    expect(batch.status, JSON.stringify(batch.body)).toBe(200);
    const id = batch.body.id as string;
    // The leader holds URLs (their pages wait at the site), and its webhook heard that the batch started.
    await until(() => query<{ n: string }>(db, "SELECT COUNT(*) AS n FROM crawl_frontier WHERE job_id = $1 AND state = 'claimed'", [id]), (r) => Number(r[0]!.n) > 0);
    await until(() => told.received.length, (n) => n > 0);
    await until(() => query(db, "SELECT 1 FROM serve_job_webhooks WHERE job_id = $1 AND settled_at IS NOT NULL", [id]), (r) => r.length > 0);
    process.kill(pid, "SIGKILL");
    await leader.exited;
    held.release();
    expect([...(await completedPaths(call, id))].sort()).toEqual(everyPath);
    await until(() => told.received.some((m) => m.type === "batch_scrape.completed"), Boolean);
    await until(() => query(db, "SELECT 1 FROM serve_job_webhooks WHERE job_id = $1 AND settled_at IS NULL", [id]), (r) => r.length === 0);
    expect(await recorded(db, id, "batch_scrape.completed")).toBe(1);
    expect(told.received.map((m) => m.type)).toEqual(["batch_scrape.started", "batch_scrape.completed"]);
    expect(told.received[1]).toMatchObject({ id, success: true });
  });

  it("a worker finishes the batch of a replica that died when no replica is left; the next replica to start sends its batch_scrape.completed, once", async () => {
    const alone = await freshDatabase();
    const aloneKey = await keyFor(alone);
    const held = await site();
    const told = await hook();
    const helper = worker(alone);
    const leader = run(["serve", "--port", "0", "--db", alone, "--allow-private-network"], { SCRAPELINE_REPLICA_LEASE: "1s" });
    const { base, pid } = await listening(leader);
    const batch = await client(base, aloneKey)("POST", "/v2/batch/scrape", { urls: held.urls(), maxConcurrency: 4, webhook: { url: told.url, events: ["started", "completed", "failed", "cancelled"] } });
    const id = batch.body.id as string;
    await until(() => helper.err().includes(`joined batch ${id}`), Boolean);
    await until(() => query(alone, "SELECT 1 FROM serve_job_webhooks WHERE job_id = $1 AND settled_at IS NOT NULL", [id]), (r) => r.length > 0);
    process.kill(pid, "SIGKILL");
    await leader.exited;
    held.release();
    await until(() => helper.err().includes(`finished batch ${id} for its replica`), Boolean);
    const job = await query<{ status: string; total: number }>(alone, "SELECT status, total FROM serve_jobs WHERE id = $1", [id]);
    expect(job).toEqual([{ status: "completed", total: URLS }]);
    expect(storedBy(helper.err())).toBeGreaterThan(0);
    // No replica is alive to send it: the message waits in the outbox for the next one.
    expect(told.received.map((m) => m.type)).toEqual(["batch_scrape.started"]);
    const next = run(["serve", "--port", "0", "--db", alone, "--allow-private-network"]);
    const nextCall = client((await listening(next)).base, aloneKey);
    await until(() => told.received.length, (n) => n > 1);
    await until(() => query(alone, "SELECT 1 FROM serve_job_webhooks WHERE job_id = $1 AND settled_at IS NULL", [id]), (r) => r.length === 0);
    expect(await recorded(alone, id, "batch_scrape.completed")).toBe(1);
    expect(told.received.map((m) => m.type)).toEqual(["batch_scrape.started", "batch_scrape.completed"]);
    expect(told.received[1]).toMatchObject({ id, success: true });
    expect([...(await completedPaths(nextCall, id))].sort()).toEqual(everyPath);
    helper.child.kill("SIGTERM");
    await helper.exited;
  });
});
