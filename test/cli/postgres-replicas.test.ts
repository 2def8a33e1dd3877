// serve replicas sharing a PostgreSQL database, as separate processes of the built CLI: a replica
// killed (or frozen) while its crawl runs is found dead by another at its heartbeat check, which
// settles the crawl; the team's concurrent-job limit and /crawl/active hold across replicas; a
// browser session's calls sent to another replica are answered naming the one holding it; a job
// webhook's message left unsent is sent once when two replicas start at the same time; an extract
// job whose replica died is resumed by the one taking it over (cancelled, saying why, when it cannot be).
import { createServer, type Server } from "node:http";
import { describe, expect, it } from "vitest";
import { PostgresStore } from "../../src/store/index.js";
import { FakeLlm } from "../helpers/llm-server.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { freshDatabase, postgresMissing } from "../helpers/postgres.js";
import { query, receiver, until } from "../helpers/serve-cluster.js";
import { runChild, startCli } from "./child.js";

const missing = postgresMissing();
if (missing) console.warn(`PostgreSQL replica tests skipped: ${missing}`);

const CLEAN_ENV = { NO_COLOR: "1", SCRAPELINE_DB: "", SCRAPELINE_DATABASE_URL: "" };


interface Replica {
  cli: ReturnType<typeof startCli>;
  base: string;
  /** The server program's pid (serve runs it as a process of its own). */
  pid: number;
}

async function startReplica(db: string, env: NodeJS.ProcessEnv = {}): Promise<Replica> {
  const cli = startCli(["serve", "--port", "0", "--db", db, "--allow-private-network"], { env: { ...CLEAN_ENV, ...env } });
  const match = await until(() => /listening on (\S+) \(pid (\d+)\)/.exec(cli.stderrSoFar()), (m) => m !== null || cli.child.exitCode !== null);
  if (!match) throw new Error(`serve did not start: ${cli.stderrSoFar()}`);
  return { cli, base: match[1]!, pid: Number(match[2]) };
}

async function stopReplica(replica: Replica | undefined): Promise<void> {
  if (!replica) return;
  if (replica.cli.child.exitCode === null) replica.cli.child.kill("SIGTERM");
  await replica.cli.done;
}

/** Kills the server program (not the CLI that started it), whether it is frozen or not. */
function killServer(replica: Replica | undefined): void {
  if (!replica) return;
  try {
    process.kill(replica.pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

async function newTeam(db: string, ...settings: string[]): Promise<string> {
  const created = await runChild(["keys", "create", "--team", "acme", "--db", db, ...settings], { env: CLEAN_ENV });
  expect(created.code, created.stderr).toBe(0);
  return created.stdout.trim().split("\n").find((line) => line.startsWith("fc-"))!;
}

function caller(key: string) {
  return async (base: string, method: string, path: string, body?: unknown) => {
    const response = await fetch(new URL(path, base), { method, headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, ...(body ? { body: JSON.stringify(body) } : {}) });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
}

/** A site whose pages after the first are held until the test releases them: a crawl of it keeps running. */
async function heldSite(): Promise<{ url: string; release: () => void; requested: () => number; authorizations: Array<string | undefined>; stop: () => Promise<void> }> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const site = new FixtureSite();
  site.route("/", (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Home", `<a href="/p/1">one</a> <a href="/p/2">two</a>`)));
  const authorizations: Array<string | undefined> = [];
  for (const path of ["/p/1", "/p/2"]) {
    site.route(path, async (req, res) => {
      authorizations.push(req.headers.authorization);
      await gate;
      res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Page", "<p>page</p>"));
    });
  }
  await site.start();
  return { url: site.url, release, authorizations, requested: () => (site.hits.get("/p/1") ?? 0) + (site.hits.get("/p/2") ?? 0), stop: () => (release(), site.stop()) };
}

describe.skipIf(missing !== undefined)("serve replicas on PostgreSQL", () => {
  for (const [how, signal] of [["killed with -9", "SIGKILL"], ["frozen (its process still there, its heartbeat stopped)", "SIGSTOP"]] as const) {
    it(`a replica ${how} while its crawl runs: one of the two other replicas carries the crawl on and finishes it, once`, async () => {
      const db = await freshDatabase();
      const call = caller(await newTeam(db));
      // A short lease: a replica whose heartbeat is 2 s old is dead.
      const env = { SCRAPELINE_REPLICA_LEASE: "2s" };
      const held = await heldSite();
      const hook = await receiver();
      let one: Replica | undefined;
      let two: Replica | undefined;
      let three: Replica | undefined;
      try {
        [one, two, three] = await Promise.all([startReplica(db, env), startReplica(db, env), startReplica(db, env)]);
        const webhook = { url: hook.url, events: ["started", "completed", "failed", "cancelled"] };
        const crawl = await call(one.base, "POST", "/v2/crawl", { url: `${held.url}/`, limit: 10, sitemap: "skip", webhook });
        expect(crawl.status, JSON.stringify(crawl.body)).toBe(200);
        const id = crawl.body.id as string;
        await until(() => call(two!.base, "GET", `/v2/crawl/${id}`), (r) => r.status === 200 && r.body.completed >= 1);
        // Its webhook has heard that it started (so the dead replica leaves no message half sent).
        const watcher = new PostgresStore(db);
        await until(() => watcher.jobWebhookTables().deliveries(id), (d) => d.length > 0).finally(() => watcher.close());
        process.kill(one.pid, signal);
        // The pages it held (waiting at the site) are fetched again by the replica carrying the crawl on.
        held.release();
        const ended = await until(() => call(two!.base, "GET", `/v2/crawl/${id}`), (r) => r.body.status !== "scraping");
        expect(ended.body.status).toBe("completed");
        expect(ended.body.data.map((d: { metadata: { sourceURL: string } }) => new URL(d.metadata.sourceURL).pathname).sort()).toEqual(["/", "/p/1", "/p/2"]);
        const store = new PostgresStore(db);
        try {
          const job = store.serveTables().job(id)!;
          expect(job.error).toBeNull();
          expect(store.getRun(job.runId!)!.status).toBe("succeeded");
          // The replica that finished the crawl tells its webhook, after what the dead one had sent.
          await until(() => store.jobWebhookTables().deliveries(id), (d) => d.some((x) => x.event === "crawl.completed"));
        } finally {
          store.close();
        }
        await Promise.all([stopReplica(two), stopReplica(three)]);
        expect(hook.received.map((m) => m.type)).toEqual(["crawl.started", "crawl.completed"]);
        expect(hook.received[1]).toMatchObject({ id, success: true });
      } finally {
        killServer(one);
        held.release();
        await Promise.all([stopReplica(one), stopReplica(two), stopReplica(three)]);
        await held.stop();
        await hook.close();
      }
    });
  }

  const TOKEN = "site-token-7d41be09";
  const resumedWithKey = "is resumed, sending its header values, by a replica taking it over with the SCRAPELINE_SECRET_KEY they were kept sealed with";
  const extractCases = [
    ["is resumed by the replica taking it over and completes", undefined, {}],
    ["ends cancelled, saying why, when it was sent with header values (not stored)", { authorization: `Bearer ${TOKEN}` }, {}],
    [resumedWithKey, { authorization: `Bearer ${TOKEN}` }, { SCRAPELINE_SECRET_KEY: "the replicas' key" }],
  ] as const;
  for (const [how, headers, keyEnv] of extractCases) {
    it(`an extract whose replica was killed with -9 ${how}; its webhook hears how it ended once`, async () => {
      const db = await freshDatabase();
      const call = caller(await newTeam(db));
      const llm = new FakeLlm();
      await llm.start();
      llm.fallback = () => ({ content: JSON.stringify({ title: "Page" }), tokens: 10 });
      const env = { SCRAPELINE_REPLICA_LEASE: "1s", SCRAPELINE_LLM_BASE_URL: llm.url, SCRAPELINE_LLM_MODEL: "served-model", SCRAPELINE_SECRET_KEY: "", ...keyEnv };
      const held = await heldSite();
      const hook = await receiver();
      let one: Replica | undefined;
      let two: Replica | undefined;
      try {
        [one, two] = await Promise.all([startReplica(db, env), startReplica(db, env)]);
        const webhook = { url: hook.url, events: ["started", "completed", "failed", "cancelled"] };
        const extract = await call(one.base, "POST", "/v2/extract", { urls: [`${held.url}/p/1`, `${held.url}/p/2`], prompt: "the page's title", webhook, ...(headers ? { scrapeOptions: { headers } } : {}) });
        expect(extract.status, JSON.stringify(extract.body)).toBe(200);
        const id = extract.body.id as string;
        // Killed while its pages wait at the site, once its webhook has heard that the job started.
        await until(() => held.requested(), (n) => n > 0);
        const watcher = new PostgresStore(db);
        await until(() => watcher.jobWebhookTables().deliveries(id), (d) => d.length > 0).finally(() => watcher.close());
        process.kill(one.pid, "SIGKILL");
        const sentBeforeKill = held.authorizations.length;
        held.release();
        const ended = await until(() => call(two!.base, "GET", `/v2/extract/${id}`), (r) => r.body.status !== "processing");
        const store = new PostgresStore(db);
        try {
          const job = store.serveTables().job(id)!;
          if (how === resumedWithKey) {
            expect(ended.body).toMatchObject({ success: true, status: "completed", data: { title: "Page" } });
            expect(job.error).toBeNull();
            // The replica that took it over fetched its pages again, with the header the request carried.
            expect(held.authorizations.length).toBeGreaterThan(sentBeforeKill);
            expect(held.authorizations).toEqual(held.authorizations.map(() => `Bearer ${TOKEN}`));
            expect(store.runPlan(job.runId!)).toContain('"authorization":"[not stored]"');
            expect(store.runPlan(job.runId!)).not.toContain(TOKEN);
          } else if (headers) {
            expect(ended.body.status).toBe("cancelled");
            expect(job.error).toMatch(/the server stopped before the job finished \(scrapeline serve pid \d+ on .*; it was not resumed: its request had header values, which are not stored/);
          } else {
            expect(ended.body).toMatchObject({ success: true, status: "completed", data: { title: "Page" } });
            expect(job.error).toBeNull();
            expect(store.getRun(job.runId!)!.status).toBe("succeeded");
          }
          const end = headers && how !== resumedWithKey ? "extract.cancelled" : "extract.completed";
          await until(() => store.jobWebhookTables().deliveries(id), (d) => d.some((x) => x.event === end));
        } finally {
          store.close();
        }
        await stopReplica(two);
        const cancelled = headers && how !== resumedWithKey;
        expect(hook.received.map((m) => m.type)).toEqual(["extract.started", cancelled ? "extract.cancelled" : "extract.completed"]);
        for (const replica of [one, two]) expect(replica.cli.stderrSoFar()).not.toContain(TOKEN);
        const rows = await Promise.all(["serve_jobs", "runs", "serve_job_headers"].map((table) => query<{ row: string }>(db, `SELECT t::text AS row FROM ${table} t`)));
        expect(rows.flat().map((r) => r.row).join("\n")).not.toContain(TOKEN);
      } finally {
        killServer(one);
        held.release();
        await Promise.all([stopReplica(one), stopReplica(two)]);
        await held.stop();
        await hook.close();
        await llm.stop();
      }
    });
  }

  it("an agent job whose replica was killed with -9 is resumed by the replica taking it over and completes", async () => {
    const db = await freshDatabase();
    const call = caller(await newTeam(db));
    const llm = new FakeLlm();
    await llm.start();
    // The first replica's model call never answers: it is killed waiting for it.
    llm.answer({ hang: true }, { content: JSON.stringify({ data: { price: 42.5 } }), tokens: 10 });
    const env = { SCRAPELINE_REPLICA_LEASE: "1s", SCRAPELINE_LLM_BASE_URL: llm.url, SCRAPELINE_LLM_MODEL: "served-model" };
    let one: Replica | undefined;
    let two: Replica | undefined;
    try {
      [one, two] = await Promise.all([startReplica(db, env), startReplica(db, env)]);
      const agent = await call(one.base, "POST", "/v2/agent", { prompt: "The widget's price", schema: { type: "object", properties: { price: { type: "number" } } } });
      expect(agent.status, JSON.stringify(agent.body)).toBe(200);
      const id = agent.body.id as string;
      await llm.nextRequest(0);
      process.kill(one.pid, "SIGKILL");
      const ended = await until(() => call(two!.base, "GET", `/v2/agent/${id}`), (r) => r.body.status !== "processing");
      expect(ended.body).toMatchObject({ success: true, status: "completed", data: { price: 42.5 } });
      expect(llm.requests).toHaveLength(2);
    } finally {
      killServer(one);
      await Promise.all([stopReplica(one), stopReplica(two)]);
      await llm.stop();
    }
  });

  it("a team's concurrent-job limit and /crawl/active hold across replicas", async () => {
    const db = await freshDatabase();
    const call = caller(await newTeam(db, "--max-concurrent-jobs", "1"));
    const held = await heldSite();
    let one: Replica | undefined;
    let two: Replica | undefined;
    try {
      [one, two] = await Promise.all([startReplica(db), startReplica(db)]);
      const crawl = await call(one.base, "POST", "/v2/crawl", { url: `${held.url}/`, limit: 10, sitemap: "skip" });
      expect(crawl.status, JSON.stringify(crawl.body)).toBe(200);
      // The crawl runs on the first replica: the second lists it, and refuses the team a second job.
      const active = await call(two.base, "GET", "/v2/crawl/active");
      expect(active.body.crawls).toEqual([expect.objectContaining({ id: crawl.body.id, url: `${held.url}/`, options: expect.objectContaining({ limit: 10, sitemap: "skip" }) })]);
      const second = await call(two.base, "POST", "/v2/batch/scrape", { urls: [`${held.url}/`] });
      expect(second.status, JSON.stringify(second.body)).toBe(429);
      expect(second.body.error).toMatch(/Concurrency limit exceeded: 1 job\(s\) running, at most 1/);
      expect((await call(two.base, "GET", "/v2/concurrency-check")).body).toMatchObject({ concurrency: 1, maxConcurrency: 1 });
      // Once it is cancelled (through the second replica), the second replica takes a job.
      expect((await call(two.base, "DELETE", `/v2/crawl/${crawl.body.id}`)).status).toBe(200);
      expect((await call(two.base, "GET", "/v2/crawl/active")).body.crawls).toEqual([]);
      const third = await call(two.base, "POST", "/v2/crawl", { url: `${held.url}/`, limit: 1, sitemap: "skip" });
      expect(third.status, JSON.stringify(third.body)).toBe(200);
    } finally {
      held.release();
      await Promise.all([stopReplica(one), stopReplica(two)]);
      await held.stop();
    }
  });

  it("a browser session stays on the replica that opened it: another replica's answer names that replica", async () => {
    const db = await freshDatabase();
    const call = caller(await newTeam(db));
    let one: Replica | undefined;
    let two: Replica | undefined;
    try {
      [one, two] = await Promise.all([startReplica(db), startReplica(db)]);
      const opened = await call(one.base, "POST", "/v2/browser", { ttl: 120 });
      expect(opened.status, JSON.stringify(opened.body)).toBe(200);
      const id = opened.body.id as string;
      const elsewhere = await call(two.base, "DELETE", `/v2/browser/${id}`);
      expect(elsewhere.status).toBe(404);
      expect(elsewhere.body.error).toContain(`browser session ${id} is held by another replica (scrapeline serve pid ${one.pid} on `);
      expect((await call(two.base, "DELETE", "/v2/browser/no-such-session")).body.error).toContain("no browser session no-such-session");
      expect((await call(one.base, "DELETE", `/v2/browser/${id}`)).status).toBe(200);
      // Closed, it is held by no replica.
      expect((await call(two.base, "DELETE", `/v2/browser/${id}`)).body.error).toContain(`no browser session ${id}`);
    } finally {
      await Promise.all([stopReplica(one), stopReplica(two)]);
    }
  });

  it("a job webhook's message left unsent is sent once when two replicas start at the same time", async () => {
    const db = await freshDatabase();
    await newTeam(db);
    const received: Array<{ webhookId: string }> = [];
    // The receiver answers once both replicas are up: until then the message stays unsettled, so a
    // replica that sent whatever it found unsettled would send it too.
    let bothUp!: () => void;
    const up = new Promise<void>((resolve) => (bothUp = resolve));
    const receiver: Server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        received.push(JSON.parse(body) as { webhookId: string });
        void up.then(() => res.writeHead(200).end("ok"));
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const hook = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
    // What a replica that died had queued and not sent (its row is gone).
    const store = new PostgresStore(db);
    let one: Replica | undefined;
    let two: Replica | undefined;
    try {
      const message = { event: "crawl.completed", json: {}, subject: "s", text: "t", service: { success: true, type: "crawl.completed", id: "job-1", webhookId: "wh-1", data: [] } };
      store.jobWebhookTables().queue("job-1", { type: "webhook", url: hook, events: ["crawl.completed"], format: "service", id: "job-1" } as never, message as never, "a-replica-gone");
      [one, two] = await Promise.all([startReplica(db), startReplica(db)]);
      bothUp();
      await until(() => store.jobWebhookTables().deliveries("job-1"), (d) => d.length > 0);
      // Both replicas stop, each waiting for what it was sending: whatever either sent has arrived.
      await Promise.all([stopReplica(one), stopReplica(two)]);
      expect(store.jobWebhookTables().deliveries("job-1")).toEqual([expect.objectContaining({ event: "crawl.completed", sent: true, status: 200 })]);
      expect(received.map((r) => r.webhookId)).toEqual(["wh-1"]);
    } finally {
      bothUp();
      await Promise.all([stopReplica(one), stopReplica(two)]);
      store.close();
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});
