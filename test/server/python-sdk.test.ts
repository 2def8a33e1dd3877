import { spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeSearxng, webResults } from "../helpers/searxng.js";
import type { FixtureSite } from "../helpers/site.js";
import { chainSite, startServe, type Serve } from "./helpers.js";

/**
 * The service's official Python SDK (firecrawl-py, unmodified, from the folder
 * SCRAPELINE_PY_SDK names) against a real serve: test/server/py-sdk/drive.py calls every v2 method
 * not limited to the hosted service and prints what each returned; this file asserts on it.
 * scripts/py-sdk-env.mjs makes (once) the venv the SDK is installed in.
 */

const script = fileURLToPath(new URL("../../scripts/py-sdk-env.mjs", import.meta.url));
const driver = fileURLToPath(new URL("./py-sdk/drive.py", import.meta.url));

/** The venv's python, or why the test is skipped. Installing the SDK the first time fetches its dependencies from PyPI. */
function environment(): { python?: string; skip?: string } {
  const run = spawnSync(process.execPath, [script, "--json"], { encoding: "utf8", timeout: 15 * 60_000 });
  if (run.status !== 0) throw new Error(`scripts/py-sdk-env.mjs failed:\n${run.stderr}`);
  return JSON.parse(run.stdout) as { python?: string; skip?: string };
}

const env = environment();
if (env.skip) console.warn(`python-sdk.test.ts skipped: ${env.skip}`);

type Outcome = { ok: true; value: any } | { ok: false; error: string; type: string; status: number | null };

let serve: Serve;
let site: FixtureSite;
let slow: FixtureSite;
let searx: FakeSearxng;
let results: Record<string, Outcome>;

function drive(python: string, vars: Record<string, string>): Promise<Record<string, Outcome>> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, [driver], { env: { ...process.env, ...vars, PYTHONDONTWRITEBYTECODE: "1" }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (err += c.toString()));
    child.once("error", reject);
    child.once("close", (code) => {
      if (code !== 0) reject(new Error(`drive.py exited ${code}:\n${err}`));
      else resolve(JSON.parse(out) as Record<string, Outcome>);
    });
  });
}

function value(name: string): any {
  const outcome = results[name];
  expect(outcome, name).toBeDefined();
  expect(outcome, `${name}: ${JSON.stringify(outcome)}`).toMatchObject({ ok: true });
  return (outcome as { value: unknown }).value;
}

describe.skipIf(env.skip !== undefined)("the Python SDK (firecrawl-py) against serve", () => {
  beforeAll(async () => {
    site = await chainSite(8);
    slow = await chainSite(30, { slow: true });
    searx = await new FakeSearxng({ results: { general: webResults(`${site.url}/p`, 3, "") } }).start();
    serve = await startServe({ py: { planTokens: 1_000_000 } }, { env: { SCRAPELINE_SEARXNG_URL: searx.url } });
    results = await drive(env.python!, { SERVE_URL: serve.server.url, SERVE_KEY: serve.keys.py!, SITE_URL: site.url, SLOW_URL: slow.url, SEARCH_QUERY: "chain pages" });
  }, 300_000);
  afterAll(async () => {
    await serve?.stop();
    await site?.stop();
    await slow?.stop();
    await searx?.stop();
  });

  it("scrape: the Document, with the formats asked", () => {
    const doc = value("scrape");
    expect(doc.markdown).toContain("Text of page 1.");
    expect(doc.links).toContain(`${site.url}/p/2`);
    expect(doc.metadata.source_url ?? doc.metadata.sourceURL).toBe(`${site.url}/p/1`);
    expect(value("scrape_json").json).toBeDefined();
  });

  it("a refused request raises the SDK's error with the status and our message", () => {
    expect(results.scrape_error).toMatchObject({ ok: false, status: 400, error: expect.stringContaining("waitFor") });
    expect(results.unauthorized).toMatchObject({ ok: false, status: 401 });
  });

  it("batch scrape, waited for and polled by hand, with its errors", () => {
    const batch = value("batch_scrape");
    expect(batch.status).toBe("completed");
    expect(batch.data.map((d: any) => d.markdown)).toEqual([expect.stringContaining("Text of page 3."), expect.stringContaining("Text of page 4.")]);
    expect(value("start_batch_scrape").id).toEqual(expect.any(String));
    const status = value("get_batch_scrape_status");
    expect(status).toMatchObject({ status: "completed", completed: 2, total: 2 });
    expect(value("get_batch_scrape_errors").errors).toEqual(expect.any(Array));
  });

  it("crawl: waited for, then started, listed as active, cancelled, and its errors read", () => {
    const crawl = value("crawl");
    expect(crawl.status).toBe("completed");
    expect(crawl.data).toHaveLength(4);
    expect(value("start_crawl").id).toEqual(expect.any(String));
    const id = value("start_crawl").id;
    expect(value("get_crawl_status").status).toEqual(expect.stringMatching(/scraping|completed/));
    expect(value("active_crawls").crawls.map((c: any) => c.id)).toContain(id);
    expect(value("cancel_crawl")).toBe(true);
    expect(value("get_crawl_errors")).toMatchObject({ errors: expect.any(Array), robots_blocked: expect.any(Array) });
    expect(value("crawl_params_preview")).toEqual(expect.any(Object));
  });

  it("a crawl whose includePaths exclude its start page answers only the pages that match", () => {
    const crawl = value("crawl_include_paths");
    expect(crawl.status).toBe("completed");
    expect(crawl.data.map((d: any) => d.metadata.source_url ?? d.metadata.sourceURL)).toEqual([`${site.url}/p/1`]);
  });

  it("map, search with scrape options, extract", () => {
    expect(value("map").links.map((l: any) => l.url)).toContain(`${site.url}/p/7`);
    const web = value("search").web;
    expect(web).toHaveLength(2);
    expect(web[0].markdown).toContain("Text of page 1.");
    expect(value("extract")).toMatchObject({ success: true, status: "completed" });
  });

  it("usage and concurrency", () => {
    expect(value("get_credit_usage").remaining_credits).toBeGreaterThan(60_000);
    expect(value("get_credit_usage").remaining_credits).toBeLessThan(1_000_000 / 15);
    expect(value("get_token_usage").remaining_tokens).toBeLessThan(1_000_000);
    expect(value("get_concurrency")).toEqual({ concurrency: 0, max_concurrency: 10 });
  });
});
