import { execFile } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { startServe, type Serve } from "./helpers.js";

// The service's Python SDK, its v1 client (V1FirecrawlApp), pointed at scrapeline serve. The SDK's
// source sits beside the repository (../shared/clients/firecrawl-py, or SCRAPELINE_PY_SDK); without
// it, or without python3, these tests are skipped and say why.
const run = promisify(execFile);
const SDK_DIR = resolve(process.env.SCRAPELINE_PY_SDK ?? "../shared/clients/firecrawl-py");
const VENV = resolve("node_modules/.cache/scrapeline-py-sdk-v1/venv");

/**
 * A virtual environment with the SDK installed from its folder (its dependencies from the package
 * index pip is configured with), made once and reused; the Python to run, or why there is none.
 */
async function pythonWithSdk(): Promise<{ python: string } | { skip: string }> {
  if (!existsSync(join(SDK_DIR, "pyproject.toml"))) return { skip: `no SDK at ${SDK_DIR} (set SCRAPELINE_PY_SDK to the firecrawl-py folder)` };
  const python = join(VENV, "bin", "python");
  const ready = async () => run(python, ["-c", "import firecrawl.v1"]).then(() => true, () => false);
  if (existsSync(python) && (await ready())) return { python };
  mkdirSync(resolve(VENV, ".."), { recursive: true });
  try {
    await run("python3", ["-m", "venv", "--clear", VENV]);
  } catch (error) {
    return { skip: `python3 -m venv failed (Debian needs python3-venv): ${(error as Error).message.split("\n")[0]}` };
  }
  // --retries 0: an index that cannot be reached is passed over at once for the others configured.
  try {
    await run(join(VENV, "bin", "pip"), ["install", "--quiet", "--retries", "0", "--timeout", "30", SDK_DIR], { maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    return { skip: `pip could not install the SDK and its dependencies: ${String((error as { stderr?: string }).stderr ?? error).trim().split("\n").pop()}` };
  }
  return (await ready()) ? { python } : { skip: "the SDK installed but does not import (python -c 'import firecrawl.v1' fails)" };
}

let serve: Serve;
let site: FixtureSite;
let python: string | undefined;
let skipped: string | undefined;

const product = `<html><head><title>Kettle</title><script type="application/ld+json">${JSON.stringify({ "@type": "Product", name: "Kettle", offers: { "@type": "Offer", price: 24.5 } })}</script></head><body><h1>Kettle</h1><p>Costs 24.5.</p></body></html>`;

beforeAll(async () => {
  const found = await pythonWithSdk();
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
