// A serve job sent with header values (the client's credentials for the site) on PostgreSQL, with
// SCRAPELINE_SECRET_KEY: its values kept sealed beside the job, so workers holding the key share
// its crawl and send them; workers without the key (or with another) leave it alone. End to end
// through the built CLI against a real site on 127.0.0.1 that refuses requests without the header.
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { PostgresStore } from "../../src/store/index.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { freshDatabase, postgresMissing } from "../helpers/postgres.js";
import { client, crawledPaths, keyFor, listening, query, startProcess, storedBy, until, type Call, type Started } from "../helpers/serve-cluster.js";

const missing = postgresMissing();
if (missing) console.warn(`header secret tests skipped: ${missing}`);

/** The site's credential: what no log, plan or row may hold in clear. */
const TOKEN = "site-token-5f2c9a71e0";
const AUTHORIZATION = `Bearer ${TOKEN}`;
const SECTIONS = 6;
const LEAVES = 5;
const ALL_PAGES = 1 + SECTIONS + SECTIONS * LEAVES;

/**
 * A site of a home page, SECTIONS sections and SECTIONS × LEAVES leaves; every page answers 401
 * without the Authorization header (counted in `refused`), and leaves wait for `release`.
 */
class GuardedSite extends FixtureSite {
  refused = 0;
  private open!: () => void;
  private readonly held = new Promise<void>((resolve) => (this.open = resolve));
  constructor() {
    super();
    const guarded = (body: () => string, hold = false) => async (req: IncomingMessage, res: ServerResponse) => {
      if (req.headers.authorization !== AUTHORIZATION) {
        this.refused++;
        res.writeHead(401, { "content-type": "text/plain" }).end("credentials required");
        return;
      }
      if (hold) await this.held;
      res.writeHead(200, { "content-type": "text/html" }).end(body());
    };
    this.route("/robots.txt", (_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nAllow: /\n"));
    this.route("/", guarded(() => htmlPage("Home", Array.from({ length: SECTIONS }, (_, s) => `<a href="/s${s}">section ${s}</a>`).join(" "))));
    for (let s = 0; s < SECTIONS; s++) {
      this.route(`/s${s}`, guarded(() => htmlPage(`Section ${s}`, Array.from({ length: LEAVES }, (_, l) => `<a href="/s${s}/l${l}">leaf ${l}</a>`).join(" "))));
      for (let l = 0; l < LEAVES; l++) this.route(`/s${s}/l${l}`, guarded(() => htmlPage(`Leaf ${s}.${l}`, `<p>leaf ${s}.${l}</p>`), true));
    }
  }
  release(): void {
    this.open();
  }
  leafUrls(): string[] {
    return Array.from({ length: SECTIONS * LEAVES }, (_, i) => `${this.url}/s${Math.floor(i / LEAVES)}/l${i % LEAVES}`);
  }
}

/** Every row of every table of the database as text: what a look through the database would find. */
async function wholeDatabase(db: string): Promise<string> {
  const tables = await query<{ name: string }>(db, "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'");
  const texts = await Promise.all(tables.map(({ name }) => query<{ row: string }>(db, `SELECT t::text AS row FROM "${name}" t`)));
  return texts.flat().map((r) => r.row).join("\n");
}

describe.skipIf(missing !== undefined)("a job's header values kept sealed with SCRAPELINE_SECRET_KEY (PostgreSQL)", () => {
  const processes: Started[] = [];
  const sites: GuardedSite[] = [];
  const run = (args: string[], env: NodeJS.ProcessEnv) => {
    const started = startProcess(args, env);
    processes.push(started);
    return started;
  };
  afterAll(async () => {
    // SIGTERM: serve passes it on to its server program, which a SIGKILL would leave running.
    for (const p of processes) if (p.child.exitCode === null) p.child.kill("SIGTERM");
    await Promise.all(processes.map((p) => p.exited));
    for (const s of sites) s.release();
    await Promise.all(sites.map((s) => s.stop()));
  });

  it("a crawl with an Authorization header is fetched by a worker with the key, sending it; workers without the key, or with another, take none of its pages; the value is in no log, plan or row", async () => {
    const site = new GuardedSite();
    sites.push(site);
    await site.start();
    const db = await freshDatabase();
    const withKey = { SCRAPELINE_SECRET_KEY: "the cluster's key" };
    const serve = run(["serve", "--port", "0", "--db", db, "--allow-private-network"], withKey);
    const call = client((await listening(serve)).base, await keyFor(db));
    const worker = (env: NodeJS.ProcessEnv) => run(["worker", "--db", db, "--allow-private-network"], env);
    const keyed = worker(withKey);
    const keyless = worker({ SCRAPELINE_SECRET_KEY: "" });
    const otherKey = worker({ SCRAPELINE_SECRET_KEY: "another key" });
    const pids = await Promise.all([keyed, keyless, otherKey].map(async (w) => Number((await until(() => /worker started \(pid (\d+)\)/.exec(w.err()), Boolean))![1])));

    const crawl = await call("POST", "/v2/crawl", { url: `${site.url}/`, limit: 100, sitemap: "skip", scrapeOptions: { headers: { Authorization: AUTHORIZATION } } });
    expect(crawl.status, JSON.stringify(crawl.body)).toBe(200);
    const id = crawl.body.id as string;
    // The worker with the key claims leaves (held at the site) beside serve's.
    await until(() => query(db, "SELECT 1 FROM crawl_frontier WHERE job_id = $1 AND claimed_by LIKE $2", [id, `%:${pids[0]}:%`]), (r) => r.length > 0);
    // The others looked at the crawl and left it, saying why.
    const leftIt = (w: Started) => until(() => w.err(), (err) => err.includes(`left crawl ${id} to other processes`));
    expect(await leftIt(keyless)).toContain("this process has no SCRAPELINE_SECRET_KEY to decrypt them");
    expect(await leftIt(otherKey)).toContain("cannot be decrypted with this process's SCRAPELINE_SECRET_KEY");
    // Its header values are kept beside it, sealed, while it runs.
    const [kept] = await query<{ sealed: string }>(db, "SELECT sealed FROM serve_job_headers WHERE job_id = $1", [id]);
    expect(kept!.sealed).toMatch(/^aes-256-gcm:/);
    const active = await call("GET", "/v2/crawl/active");
    expect(active.body.crawls.map((c: { id: string }) => c.id)).toEqual([id]);
    expect(JSON.stringify(active.body)).not.toContain(TOKEN);

    site.release();
    expect((await crawledPaths(call, id)).length).toBe(ALL_PAGES);
    expect(site.refused).toBe(0);
    await until(() => keyed.err(), (err) => err.includes(`left crawl ${id}`));
    expect(storedBy(keyed.err())).toBeGreaterThan(0);
    for (const w of [keyless, otherKey]) {
      expect(w.err()).not.toContain(`joined crawl ${id}`);
      expect(w.err().split(`left crawl ${id} to other processes`)).toHaveLength(2);
      expect(storedBy(w.err())).toBe(0);
    }

    const store = new PostgresStore(db);
    try {
      const job = store.serveTables().job(id)!;
      const plan = store.runPlan(job.runId!)!;
      expect(plan).toContain('"Authorization":"[not stored]"');
      expect(plan).not.toContain(TOKEN);
    } finally {
      store.close();
    }
    // Once the job has ended they are not kept any more.
    expect(await query(db, "SELECT 1 FROM serve_job_headers WHERE job_id = $1", [id])).toEqual([]);
    expect(await wholeDatabase(db)).not.toContain(TOKEN);
    for (const p of [serve, keyed, keyless, otherKey]) expect(p.err()).not.toContain(TOKEN);
  });

  /** A replica of `db` with `env` whose heartbeat lease is 1 s: where it listens and its server program's pid. */
  const replica = async (db: string, env: NodeJS.ProcessEnv) => {
    const started = run(["serve", "--port", "0", "--db", db, "--allow-private-network"], { SCRAPELINE_REPLICA_LEASE: "1s", ...env });
    return { started, ...(await listening(started)) };
  };
  const guardedSite = async () => {
    const site = new GuardedSite();
    sites.push(site);
    await site.start();
    return site;
  };

  it("a replica with the key carries on a dead replica's batch scrape sent with header values, sending them", async () => {
    const site = await guardedSite();
    const db = await freshDatabase();
    const withKey = { SCRAPELINE_SECRET_KEY: "the cluster's key" };
    const one = await replica(db, withKey);
    const key = await keyFor(db);
    const two = await replica(db, withKey);
    const batch = await client(one.base, key)("POST", "/v2/batch/scrape", { urls: site.leafUrls(), maxConcurrency: 4, headers: { Authorization: AUTHORIZATION } });
    expect(batch.status, JSON.stringify(batch.body)).toBe(200);
    const id = batch.body.id as string;
    // Killed while it holds URLs whose pages wait at the site.
    await until(() => query(db, "SELECT 1 FROM crawl_frontier WHERE job_id = $1 AND state = 'claimed'", [id]), (r) => r.length > 0);
    process.kill(one.pid, "SIGKILL");
    await one.started.exited;
    site.release();
    const done = await until(() => client(two.base, key)("GET", `/v2/batch/scrape/${id}`), (r) => r.body.status !== "scraping");
    expect(done.body, JSON.stringify(done.body).slice(0, 500)).toMatchObject({ status: "completed", completed: SECTIONS * LEAVES });
    expect(site.refused).toBe(0);
    for (const p of [one.started, two.started]) expect(p.err()).not.toContain(TOKEN);
    expect(await wholeDatabase(db)).not.toContain(TOKEN);
  });

  it("a replica without the key that takes over a dead replica's crawl sent with header values ends it cancelled, naming SCRAPELINE_SECRET_KEY, and sends none of its requests", async () => {
    const site = await guardedSite();
    const db = await freshDatabase();
    const one = await replica(db, { SCRAPELINE_SECRET_KEY: "the first replica's key" });
    const key = await keyFor(db);
    const two = await replica(db, { SCRAPELINE_SECRET_KEY: "" });
    const crawl = await client(one.base, key)("POST", "/v2/crawl", { url: `${site.url}/`, limit: 100, sitemap: "skip", scrapeOptions: { headers: { Authorization: AUTHORIZATION } } });
    expect(crawl.status, JSON.stringify(crawl.body)).toBe(200);
    const id = crawl.body.id as string;
    await until(() => query(db, "SELECT 1 FROM crawl_frontier WHERE job_id = $1 AND state = 'claimed'", [id]), (r) => r.length > 0);
    process.kill(one.pid, "SIGKILL");
    await one.started.exited;
    const ended = await until(() => client(two.base, key)("GET", `/v2/crawl/${id}`), (r) => r.body.status !== "scraping");
    expect(ended.body.status).toBe("cancelled");
    const [job] = await query<{ error: string }>(db, "SELECT error FROM serve_jobs WHERE id = $1", [id]);
    expect(job!.error).toMatch(/it was not resumed: its request's header values are kept encrypted and this process has no SCRAPELINE_SECRET_KEY to decrypt them/);
    site.release();
    expect(site.refused).toBe(0);
    expect(two.started.err()).not.toContain(TOKEN);
  });
});
