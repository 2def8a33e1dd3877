import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/server/index.js";
import type { FixtureSite } from "../helpers/site.js";
import { chainSite, startServe, waitFor, type Serve } from "./helpers.js";

/** One database, one server: a second server never touches the first one's jobs. */

let site: FixtureSite;
let serve: Serve;

beforeAll(async () => {
  site = await chainSite(30, { slow: true });
  serve = await startServe({ a: {} });
});
afterAll(async () => {
  await serve?.stop();
  await site?.stop();
});

describe("a second server on the same database", () => {
  it("refuses to start, naming the pid in use, and the first server's running crawl goes on", async () => {
    const start = await serve.call("POST", "/v2/crawl", { body: { url: site.url, limit: 30, sitemap: "skip" } });
    expect(start.status).toBe(200);
    await expect(startServer({ db: serve.db, port: 0, env: {} })).rejects.toThrow(`is in use by another scrapeline serve (pid ${process.pid}`);
    const running = await serve.call("GET", `/v2/crawl/${start.body.id}`);
    expect(running.body.status).toBe("scraping");
    const done = await waitFor(() => serve.call("GET", `/v2/crawl/${start.body.id}`), (r) => r.body.status !== "scraping");
    expect(done.body.status).toBe("completed");
  });

  it("starts once the first has stopped", async () => {
    const first = await startServe({ a: {} });
    await first.server.close();
    const second = await startServer({ db: first.db, port: 0, env: {} });
    await second.close();
    await first.stop();
  });

  it.skipIf(!existsSync("dist/cli/main.js"))("a serve process keeps the database from a server started elsewhere", async () => {
    const other = await startServe({ b: {} });
    await other.server.close();
    const child = spawn(process.execPath, ["dist/cli/main.js", "serve", "--port", "0", "--db", other.db], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
    try {
      const pid = (await waitFor(async () => /listening on \S+ \(pid (\d+)\)/.exec(stderr)?.[1], (found) => found !== undefined))!;
      const again = spawnSync(process.execPath, ["dist/cli/main.js", "serve", "--port", "0", "--db", other.db], { encoding: "utf8", timeout: 30_000 });
      expect(again.status).toBe(1);
      expect(again.stderr).toContain(`in use by another scrapeline serve (pid ${pid}`);
    } finally {
      child.kill("SIGTERM");
      await exited;
      await other.stop();
    }
  });

  it("takes over from a server that died, cancelling the jobs it left running", async () => {
    const first = await startServe({ a: {} });
    const start = await first.call("POST", "/v2/crawl", { body: { url: site.url, limit: 30, sitemap: "skip" } });
    // A crash: the process is gone without a word to the database.
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
    const db = new Database(first.db);
    db.prepare("UPDATE serve_owner SET pid = ?, token = 'crashed'").run(Number(dead.stdout));
    db.prepare("UPDATE serve_jobs SET status = 'scraping'").run();
    db.close();
    // The first server is still open in this test, but its row says a dead process owns the database.
    const second = await startServer({ db: first.db, port: 0, env: {}, allowPrivateNetwork: true });
    try {
      const res = await fetch(`${second.url}/v2/crawl/${start.body.id}`, { headers: { authorization: `Bearer ${first.keys.a}` } });
      const body = (await res.json()) as { status: string; error?: string };
      expect(body.status).toBe("cancelled");
    } finally {
      await second.close();
      await first.stop();
    }
  });
});
