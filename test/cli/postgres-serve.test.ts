// serve, keys, watch and monitors on PostgreSQL, end to end through the built CLI: a key made with
// `keys create`, a scrape and a crawl served through HTTP and polled, and watch --once running a
// due check. The URL's password is in no output.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresStore } from "../../src/store/index.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { freshDatabase, postgresMissing, postgresPassword } from "../helpers/postgres.js";
import { workdir } from "../run/helpers.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const missing = postgresMissing();
if (missing) console.warn(`PostgreSQL serve tests skipped: ${missing}`);

function start(args: string[], env: NodeJS.ProcessEnv = {}): { child: ChildProcess; out: () => string; err: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [join(ROOT, "dist/cli/main.js"), ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: "1", SCRAPELINE_DB: "", SCRAPELINE_DATABASE_URL: "", ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return { child, out: () => stdout, err: () => stderr, exited };
}

async function scrapeline(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = start(args);
  const code = await run.exited;
  return { code, stdout: run.out(), stderr: run.err() };
}

/** Waits until `read` gives a value `done` accepts (the test's own timeout bounds it). */
async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const site = new FixtureSite();
beforeAll(async () => {
  site.route("/", (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Home", `<p>home</p><a href="/a">a</a> <a href="/b">b</a>`)));
  site.route("/a", (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("A", "<p>page a</p>")));
  site.route("/b", (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("B", "<p>page b</p>")));
  await site.start();
});
afterAll(() => site.stop());

describe.skipIf(missing !== undefined)("serve, keys and watch on PostgreSQL", () => {
  const outputs: string[] = [];

  it("keys create makes a key that serve takes; a scrape and a crawl are served and polled", async () => {
    const db = await freshDatabase();
    const created = await scrapeline(["keys", "create", "--team", "acme", "--db", db]);
    outputs.push(created.stdout, created.stderr);
    expect(created.code, created.stderr).toBe(0);
    const key = created.stdout.trim().split("\n").find((line) => line.startsWith("fc-"))!;
    expect(key).toMatch(/^fc-\S+$/);
    const listed = await scrapeline(["keys", "list", "--db", db, "--json"]);
    outputs.push(listed.stdout, listed.stderr);
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ team: "acme", revokedAt: null })]);

    const serve = start(["serve", "--port", "0", "--db", db, "--allow-private-network"]);
    try {
      const base = (await until(() => /listening on (\S+)/.exec(serve.err())?.[1], (found) => found !== undefined || serve.child.exitCode !== null)) ?? "";
      expect(base, serve.err()).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);
      const call = async (method: string, path: string, body?: unknown, auth = key) => {
        const response = await fetch(new URL(path, base), { method, headers: { authorization: `Bearer ${auth}`, "content-type": "application/json" }, ...(body ? { body: JSON.stringify(body) } : {}) });
        return { status: response.status, body: (await response.json()) as Record<string, any> };
      };
      expect((await call("POST", "/v2/scrape", { url: `${site.url}/a` }, "fc-not-a-key")).status).toBe(401);
      const scraped = await call("POST", "/v2/scrape", { url: `${site.url}/a`, formats: ["markdown"] });
      expect(scraped.status, JSON.stringify(scraped.body)).toBe(200);
      expect(scraped.body.data.markdown).toContain("page a");

      const crawl = await call("POST", "/v2/crawl", { url: `${site.url}/`, limit: 10, sitemap: "skip" });
      expect(crawl.status, JSON.stringify(crawl.body)).toBe(200);
      const done = await until(() => call("GET", `/v2/crawl/${crawl.body.id}`), (r) => r.body.status !== "scraping");
      expect(done.body.status).toBe("completed");
      expect(done.body.data.map((d: { metadata: { sourceURL: string } }) => new URL(d.metadata.sourceURL).pathname).sort()).toEqual(["/", "/a", "/b"]);
      const usage = await call("GET", "/v2/team/credit-usage");
      expect(usage.status).toBe(200);

      // serve's /ui reads the team's runs from PostgreSQL: the scrape's and the crawl's, and a crawled page.
      const ui = async (path: string) => {
        const response = await fetch(new URL(path, base), { headers: { authorization: `Bearer ${key}` } });
        return { status: response.status, text: await response.text() };
      };
      const home = await ui("/ui/");
      expect(home.status, home.text).toBe(200);
      const runs = [...home.text.matchAll(/data-run="(\d+)"/g)].map((m) => m[1]!);
      expect(runs).toHaveLength(2);
      const crawlRun = await ui(`/ui/runs/${runs[0]}`);
      expect(crawlRun.status).toBe(200);
      expect(crawlRun.text).toContain(`${site.url}/b`);
    } finally {
      serve.child.kill("SIGTERM");
      await serve.exited;
      outputs.push(serve.out(), serve.err());
    }
  });

  it("watch --once runs a due check on PostgreSQL, and monitors lists it", async () => {
    const db = await freshDatabase();
    const dir = workdir();
    mkdirSync(join(dir, "pipelines"));
    writeFileSync(join(dir, "pipelines", "hello.yaml"), `version: 1\nname: hello\nschedule: { every: 1h }\nsteps:\n  - id: page\n    scrape: { url: "${site.url}/a", formats: [markdown, { type: changeTracking }] }\n`);
    const watched = await scrapeline(["watch", join(dir, "pipelines"), "--db", db, "--once", "--allow-private-network"]);
    outputs.push(watched.stdout, watched.stderr);
    expect(watched.code, watched.stderr).toBe(0);
    expect(watched.stdout).toMatch(/check\.completed monitor=hello check=1 run=1 pages=1 changed=0 new=1/);
    const again = await scrapeline(["watch", join(dir, "pipelines"), "--db", db, "--once", "--allow-private-network"]);
    outputs.push(again.stdout, again.stderr);
    expect(again.code, again.stderr).toBe(0);
    // Not due again within the hour: the check is not run twice.
    expect(again.stdout).not.toMatch(/check\.started/);
    const monitors = await scrapeline(["monitors", "--db", db, "--json"]);
    outputs.push(monitors.stdout, monitors.stderr);
    expect(JSON.parse(monitors.stdout)).toEqual([expect.objectContaining({ name: "hello", lastCheck: expect.objectContaining({ status: "completed" }) })]);
  });

  it("two serve replicas share keys, jobs and usage: a crawl started on one is polled and cancelled on the other", async () => {
    const db = await freshDatabase();
    const created = await scrapeline(["keys", "create", "--team", "acme", "--db", db]);
    outputs.push(created.stdout, created.stderr);
    const key = created.stdout.trim().split("\n").find((line) => line.startsWith("fc-"))!;
    // A chain of pages held until the test lets them go: the crawl is still running when it is cancelled.
    const PAGES = 40;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const held = new FixtureSite();
    held.route("/", (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Home", `<a href="/p/0">first</a>`)));
    for (let i = 0; i < PAGES; i++) {
      held.route(`/p/${i}`, async (_req, res) => {
        if (i > 0) await gate;
        res.writeHead(200, { "content-type": "text/html" }).end(htmlPage(`Page ${i}`, `<p>page ${i}</p><a href="/p/${i + 1}">next</a>${i === 0 ? Array.from({ length: PAGES }, (_, j) => `<a href="/p/${j}">${j}</a>`).join(" ") : ""}`));
      });
    }
    await held.start();
    const one = start(["serve", "--port", "0", "--db", db, "--allow-private-network"]);
    const two = start(["serve", "--port", "0", "--db", db, "--allow-private-network"]);
    try {
      const bases = await Promise.all([one, two].map((s) => until(() => /listening on (\S+)/.exec(s.err())?.[1], (found) => found !== undefined || s.child.exitCode !== null)));
      expect(bases.every((b) => b?.startsWith("http://")), `${one.err()}\n${two.err()}`).toBe(true);
      const call = async (base: string, method: string, path: string, body?: unknown) => {
        const response = await fetch(new URL(path, base), { method, headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, ...(body ? { body: JSON.stringify(body) } : {}) });
        return { status: response.status, body: (await response.json()) as Record<string, any> };
      };
      const crawl = await call(bases[0]!, "POST", "/v2/crawl", { url: `${held.url}/`, limit: 100, sitemap: "skip" });
      expect(crawl.status, JSON.stringify(crawl.body)).toBe(200);
      // The other replica sees the job and its first pages.
      const seen = await until(() => call(bases[1]!, "GET", `/v2/crawl/${crawl.body.id}`), (r) => r.status === 200 && r.body.completed >= 2);
      expect(seen.body.status).toBe("scraping");
      const cancelled = await call(bases[1]!, "DELETE", `/v2/crawl/${crawl.body.id}`);
      expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
      release();
      // The replica running it stops starting pages: its run ends with far fewer than the site's pages.
      const store = new PostgresStore(db);
      try {
        const runId = store.serveTables().job(crawl.body.id)!.runId!;
        const run = await until(() => store.getRun(runId)!, (r) => r.finishedAt !== null);
        expect(run.status).not.toBe("running");
        expect(store.getSteps(runId)[0]!.documents).toBeLessThan(PAGES);
      } finally {
        store.close();
      }
      for (const base of bases) {
        const after = await call(base!, "GET", `/v2/crawl/${crawl.body.id}`);
        expect(after.body.status).toBe("cancelled");
        expect(after.body.completed).toBeLessThan(PAGES);
      }
      // Usage is the team's across replicas.
      const usage = await Promise.all(bases.map((b) => call(b!, "GET", "/v2/team/credit-usage")));
      expect(usage[0]!.body).toEqual(usage[1]!.body);
    } finally {
      release();
      for (const serve of [one, two]) serve.child.kill("SIGTERM");
      await Promise.all([one.exited, two.exited]);
      outputs.push(one.out(), one.err(), two.out(), two.err());
      await held.stop();
    }
  });

  it.skipIf(!existsSync("/proc/self/task"))("serve given the URL in SCRAPELINE_DATABASE_URL starts its server without the password in any process's arguments", async () => {
    const db = await freshDatabase();
    const serve = start(["serve", "--port", "0"], { SCRAPELINE_DATABASE_URL: db });
    try {
      await until(() => /listening on (\S+)/.exec(serve.err())?.[1], (found) => found !== undefined || serve.child.exitCode !== null);
      expect(serve.err()).toMatch(/listening on/);
      const children = readFileSync(`/proc/${serve.child.pid}/task/${serve.child.pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
      expect(children.length).toBeGreaterThan(0);
      for (const pid of [String(serve.child.pid), ...children]) {
        const args = readFileSync(`/proc/${pid}/cmdline`, "utf8");
        expect(args).toContain("main.js");
        expect(args).not.toContain(postgresPassword());
      }
    } finally {
      serve.child.kill("SIGTERM");
      await serve.exited;
      outputs.push(serve.out(), serve.err());
    }
  });

  it("no output shows the database password", () => {
    const password = postgresPassword();
    expect(password.length).toBeGreaterThan(4);
    expect(outputs.length).toBeGreaterThan(0);
    for (const output of outputs) expect(output).not.toContain(password);
  });
});
