import { execFile, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { startServe, type Serve } from "./helpers.js";

// The service's Python SDK, its v1 client (V1FirecrawlApp), pointed at scrapeline serve. The SDK's
// source is the folder SCRAPELINE_PY_SDK names (CI sets it); without it, or without python3, these
// tests are skipped and say why. scripts/py-sdk-env.mjs makes (once) the venv the SDK is installed in.
const run = promisify(execFile);
const script = fileURLToPath(new URL("../../scripts/py-sdk-env.mjs", import.meta.url));

/** The venv's python with the SDK installed, or why there is none. */
function pythonWithSdk(): { python: string } | { skip: string } {
  const made = spawnSync(process.execPath, [script, "--json"], { encoding: "utf8", timeout: 15 * 60_000 });
  if (made.status !== 0) throw new Error(`scripts/py-sdk-env.mjs failed:\n${made.stderr}`);
  const found = JSON.parse(made.stdout) as { python?: string; skip?: string };
  return found.python ? { python: found.python } : { skip: found.skip ?? "no Python SDK" };
}

// Made while the file is collected (the first time it installs the SDK), not in a hook with its time limit.
const found = pythonWithSdk();

let serve: Serve;
let site: FixtureSite;
let python: string | undefined;
let skipped: string | undefined;

const product = `<html><head><title>Kettle</title><script type="application/ld+json">${JSON.stringify({ "@type": "Product", name: "Kettle", offers: { "@type": "Offer", price: 24.5 } })}</script></head><body><h1>Kettle</h1><p>Costs 24.5.</p></body></html>`;

beforeAll(async () => {
  if ("skip" in found) {
    skipped = found.skip;
    console.warn(`Python SDK v1 tests skipped: ${skipped}`);
    return;
  }
  python = found.python;
  site = new FixtureSite();
  site.page("/", htmlPage("Home", `<a href="/p/0">0</a> <a href="/p/1">1</a> <a href="/p/2">2</a>`));
  site.page("/robots.txt", "");
  for (let i = 0; i < 3; i++) site.page(`/p/${i}`, htmlPage(`Page ${i}`, `<p>Text of page ${i}.</p>`));
  site.page("/kettle", product);
  await site.start();
  serve = await startServe({ sdk: { planTokens: 1_000_000 } });
}, 900_000);
afterAll(async () => {
  await serve?.stop();
  await site?.stop();
});

/** Runs Python with `app` (a V1FirecrawlApp on serve) and `site` defined; what it prints as JSON. */
async function py(code: string): Promise<any> {
  const script = [
    "import json, sys",
    "from firecrawl.v1 import V1FirecrawlApp, V1ScrapeOptions",
    `app = V1FirecrawlApp(api_key=${JSON.stringify(serve.keys.sdk)}, api_url=${JSON.stringify(serve.server.url)})`,
    `site = ${JSON.stringify(site.url)}`,
    "def out(value):",
    "    print(json.dumps(value, default=str))",
    code,
  ].join("\n");
  const { stdout } = await run(python!, ["-c", script], { maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(stdout.trim().split("\n").pop()!);
}

describe("the Python SDK's v1 client against serve", () => {
  it("scrape_url: markdown and the v1 extract format", async (ctx) => {
    if (skipped) return ctx.skip();
    const got = await py(
      [
        "doc = app.scrape_url(site + '/kettle', formats=['markdown', 'extract'], extract={'schema': {'type': 'object', 'properties': {'name': {'type': 'string'}, 'price': {'type': 'number'}}}})",
        "out({'markdown': doc.markdown, 'extract': doc.extract, 'json': doc.json_field, 'source': doc.metadata['sourceURL']})",
      ].join("\n"),
    );
    expect(got.markdown).toContain("Costs 24.5.");
    expect(got.extract).toEqual({ name: "Kettle", price: 24.5 });
    expect(got.json).toBeNull();
    expect(got.source).toBe(`${site.url}/kettle`);
  });

  it("crawl_url: waits for the crawl and returns every page", async (ctx) => {
    if (skipped) return ctx.skip();
    const got = await py(
      [
        "status = app.crawl_url(site, limit=10, max_depth=2, ignore_sitemap=True, scrape_options=V1ScrapeOptions(formats=['markdown']), poll_interval=1)",
        "out({'status': status.status, 'completed': status.completed, 'total': status.total, 'credits': status.creditsUsed, 'urls': sorted(d.metadata['sourceURL'] for d in status.data)})",
      ].join("\n"),
    );
    expect(got).toMatchObject({ status: "completed", completed: 4, total: 4, credits: 4 });
    expect(got.urls).toEqual([`${site.url}/`, `${site.url}/p/0`, `${site.url}/p/1`, `${site.url}/p/2`]);
  });

  it("map_url: links as URLs", async (ctx) => {
    if (skipped) return ctx.skip();
    const got = await py("result = app.map_url(site, ignore_sitemap=True, limit=20)\nout({'success': result.success, 'links': result.links})");
    expect(got.success).toBe(true);
    expect(got.links).toEqual(expect.arrayContaining([`${site.url}/p/0`, `${site.url}/p/2`]));
  });

  it("batch_scrape_urls: waits for the batch and returns its pages", async (ctx) => {
    if (skipped) return ctx.skip();
    const got = await py(
      [
        "status = app.batch_scrape_urls([site + '/p/0', site + '/p/1'], formats=['markdown', 'links'], poll_interval=1)",
        "out({'status': status.status, 'completed': status.completed, 'markdown': sorted(d.markdown for d in status.data)})",
      ].join("\n"),
    );
    expect(got).toMatchObject({ status: "completed", completed: 2 });
    expect(got.markdown[0]).toContain("Text of page 0.");
    expect(got.markdown[1]).toContain("Text of page 1.");
  });

  it("extract: starts, polls and returns the data", async (ctx) => {
    if (skipped) return ctx.skip();
    const got = await py(
      [
        "result = app.extract([site + '/kettle'], schema={'type': 'object', 'properties': {'name': {'type': 'string'}, 'price': {'type': 'number'}}})",
        "out({'success': result.success, 'status': result.status, 'data': result.data})",
      ].join("\n"),
    );
    expect(got).toEqual({ success: true, status: "completed", data: { name: "Kettle", price: 24.5 } });
  });
});
