import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadPipelineText } from "../../src/pipeline/index.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { startServe, type Serve } from "./helpers.js";

/** Values the service takes that older clients and its own tests send: stealth proxy, long timeouts, short map timeouts; and cacheState only where the cache was asked. */

let serve: Serve;
const site = new FixtureSite();
let release: () => void = () => {};
const held = new Promise<void>((resolve) => (release = resolve));

beforeAll(async () => {
  site.page("/", htmlPage("Home", `<p>Home page.</p><a href="/a">a</a>`)).page("/a", htmlPage("A", "<p>Page a.</p>")).page("/c", htmlPage("C", "<p>Cached page.</p>")).page("/robots.txt", "");
  // A site whose every answer waits until the test ends: a map of it runs out of time.
  const stuck = new FixtureSite();
  stuck.route("/", async (_req, res) => {
    await held;
    res.writeHead(200, { "content-type": "text/html" }).end("late");
  });
  await site.start();
  serve = await startServe({ a: { planTokens: 1_000_000 } });
  stuckSite = await stuck.start();
});
let stuckSite: FixtureSite;
afterAll(async () => {
  release();
  await serve?.stop();
  await site.stop();
  await stuckSite?.stop();
});

describe("values the service takes", () => {
  it("proxy stealth is enhanced, with a warning", async () => {
    const r = await serve.call("POST", "/v2/batch/scrape", { body: { urls: [`${site.url}/a`], proxy: "stealth" } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.warning).toContain("proxy stealth is the older name of enhanced");
    const scraped = await serve.call("POST", "/v2/scrape", { body: { url: `${site.url}/a`, proxy: "stealth" } });
    expect(scraped.status).toBe(200);
  });

  it("a URL without its scheme gets http://, as the service prepends it (scrape, batch, crawl, map)", async () => {
    const bare = site.url.replace(/^http:\/\//, "");
    const scraped = await serve.call("POST", "/v2/scrape", { body: { url: `${bare}/a` } });
    expect(scraped.status, JSON.stringify(scraped.body)).toBe(200);
    expect(scraped.body.data.metadata.sourceURL).toBe(`${site.url}/a`);
    expect((await serve.call("POST", "/v2/batch/scrape", { body: { urls: [`${bare}/a`] } })).body.invalidURLs).toEqual([]);
    expect((await serve.call("POST", "/v2/crawl", { body: { url: bare, limit: 1 } })).status).toBe(200);
    expect((await serve.call("POST", "/v2/map", { body: { url: bare, sitemap: "skip" } })).status).toBe(200);
    expect((await serve.call("POST", "/v2/scrape", { body: { url: "ftp://example.com/a" } })).status).toBe(400);
    expect((await serve.call("POST", "/v2/scrape", { body: { url: "javascript:alert(1)" } })).status).toBe(400);
  });

  it("a pipeline takes proxy stealth as enhanced too, warning at the value", () => {
    const loaded = loadPipelineText("p.yaml", `version: 1\nname: p\nsteps:\n  - id: s\n    scrape:\n      url: https://example.com\n      proxy: stealth\n`);
    expect(loaded.diagnostics).toEqual([expect.objectContaining({ severity: "warning", code: "renamed-value", line: 7, column: 14, hint: "use proxy: enhanced" })]);
    const step = loaded.pipeline!.steps[0]!;
    expect(step.kind === "scrape" && step.body.proxy).toBe("enhanced");
  });

  it("a scrape timeout above 300000 ms is taken; below 1000 is refused", async () => {
    expect((await serve.call("POST", "/v2/scrape", { body: { url: `${site.url}/a`, timeout: 600_000 } })).status).toBe(200);
    const low = await serve.call("POST", "/v2/scrape", { body: { url: `${site.url}/a`, timeout: 500 } });
    expect(low.status).toBe(400);
    expect(low.body.error).toContain("timeout is at least 1000 ms");
  });

  it("a map timeout under 1000 ms is taken, and a map that found nothing in it is a 408 MAP_TIMEOUT", async () => {
    const quick = await serve.call("POST", "/v2/map", { body: { url: site.url, timeout: 999, sitemap: "skip" } });
    expect(quick.status, JSON.stringify(quick.body)).not.toBe(400);
    const late = await serve.call("POST", "/v2/map", { body: { url: stuckSite.url, timeout: 300 } });
    expect(late.status, JSON.stringify(late.body)).toBe(408);
    expect(late.body).toMatchObject({ success: false, code: "MAP_TIMEOUT", error: expect.stringMatching(/^Map timed out/) });
  });
});

describe("cacheState", () => {
  it("is miss, then hit, when the cache is asked; absent when the request bypasses it", async () => {
    const first = await serve.call("POST", "/v2/scrape", { body: { url: `${site.url}/c`, maxAge: 60_000 } });
    expect(first.body.data.metadata.cacheState).toBe("miss");
    const second = await serve.call("POST", "/v2/scrape", { body: { url: `${site.url}/c`, maxAge: 60_000 } });
    expect(second.body.data.metadata.cacheState).toBe("hit");
    const bypassed = await serve.call("POST", "/v2/scrape", { body: { url: `${site.url}/c`, maxAge: 60_000, headers: { "x-test": "1" } } });
    expect(bypassed.status).toBe(200);
    expect(bypassed.body.data.metadata).not.toHaveProperty("cacheState");
    const off = await serve.call("POST", "/v2/scrape", { body: { url: `${site.url}/c`, maxAge: 0 } });
    expect(off.body.data.metadata).not.toHaveProperty("cacheState");
  });
});
