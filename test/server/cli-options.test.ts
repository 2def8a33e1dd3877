import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FixtureSite } from "../helpers/site.js";
import { chainSite, startServe, waitFor, type Serve } from "./helpers.js";

/** `scrapeline serve --public-url` as a program: the links it answers with, and a bad value refused. */

let site: FixtureSite;
let dbOwner: Serve;

beforeAll(async () => {
  site = await chainSite(2);
  dbOwner = await startServe({ ops: {} });
  await dbOwner.server.close(); // only its database and key are used: the program serves it
});
afterAll(async () => {
  await dbOwner?.stop();
  await site?.stop();
});

describe.skipIf(!existsSync("dist/cli/main.js"))("serve --public-url", () => {
  it("builds the links of answers from it", async () => {
    const child = spawn(process.execPath, ["dist/cli/main.js", "serve", "--port", "0", "--db", dbOwner.db, "--allow-private-network", "--public-url", "https://scrape.example.com/", "--max-connections-per-client", "8"], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
    try {
      const base = (await waitFor(async () => /listening on (\S+)/.exec(stderr)?.[1], (found) => found !== undefined))!;
      const res = await fetch(`${base}/v2/crawl`, { method: "POST", headers: { authorization: `Bearer ${dbOwner.keys.ops}`, "content-type": "application/json", host: "evil.example" }, body: JSON.stringify({ url: site.url, limit: 2, sitemap: "skip" }) });
      const body = (await res.json()) as { id: string; url: string };
      expect(body.url).toBe(`https://scrape.example.com/v2/crawl/${body.id}`);
    } finally {
      child.kill("SIGTERM");
      await exited;
    }
  });

  it("refuses a value that is not an http(s) URL", () => {
    const r = spawnSync(process.execPath, ["dist/cli/main.js", "serve", "--port", "0", "--db", dbOwner.db, "--public-url", "scrape.example.com"], { encoding: "utf8", timeout: 30_000 });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("--public-url must be an absolute http(s) URL");
  });
});
