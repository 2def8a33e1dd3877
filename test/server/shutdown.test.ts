import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/server/index.js";
import { FixtureSite } from "../helpers/site.js";
import { chainSite, waitFor } from "./helpers.js";

let site: FixtureSite;
let dir: string;

beforeAll(async () => {
  site = await chainSite(40, { slow: true });
  dir = mkdtempSync(join(tmpdir(), "scrapeline-shutdown-"));
});
afterAll(async () => {
  await site?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("scrapeline serve as a program", () => {
  it("creates a key, serves, and on SIGTERM stops gracefully keeping every stored page", async () => {
    const db = join(dir, "serve.db");
    const created = spawnSync(process.execPath, ["dist/cli/main.js", "keys", "create", "--team", "ops", "--db", db], { encoding: "utf8" });
    expect(created.status).toBe(0);
    const key = created.stdout.trim();
    expect(key).toMatch(/^fc-[0-9a-f]{32}$/);
    const listed = spawnSync(process.execPath, ["dist/cli/main.js", "keys", "list", "--db", db, "--json"], { encoding: "utf8" });
    expect(listed.stdout).not.toContain(key);

    const child = spawn(process.execPath, ["dist/cli/main.js", "serve", "--port", "0", "--db", db, "--allow-private-network"], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const base = (await waitFor(async () => /listening on (\S+)/.exec(stderr)?.[1], (url) => url !== undefined))!;
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, ...(body ? { body: JSON.stringify(body) } : {}) });
      return { status: res.status, body: (await res.json()) as any };
    };
    expect((await fetch(`${base}/health`)).status).toBe(200);
    const crawl = await call("POST", "/v2/crawl", { url: site.url, limit: 40, sitemap: "skip" });
    expect(crawl.status).toBe(200);
    await waitFor(() => call("GET", `/v2/crawl/${crawl.body.id}`), (r) => r.body.completed >= 3);

    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(stderr).toContain("SIGTERM");
    expect(stderr).not.toContain(key);

    // Started again on the same database, the job reads back cancelled with every page it stored.
    const again = await startServer({ db, port: 0 });
    try {
      const res = await fetch(`${again.url}/v2/crawl/${crawl.body.id}`, { headers: { authorization: `Bearer ${key}` } });
      const status = (await res.json()) as any;
      expect(status.status).toBe("cancelled");
      expect(status.completed).toBeGreaterThanOrEqual(3);
      expect(status.data).toHaveLength(status.completed);
      expect(status.creditsUsed).toBe(status.completed);
    } finally {
      await again.close();
    }
  });
});
