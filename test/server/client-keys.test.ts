import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_KEYS, withoutClientKeys } from "../../src/pipeline/client-keys.js";
import { loadPipelineText } from "../../src/pipeline/index.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { startServe, waitFor, type Serve } from "./helpers.js";

/** The keys the service's SDKs send about themselves: accepted by serve where they are sent, refused in pipelines with a hint. */

let serve: Serve;
const site = new FixtureSite();

beforeAll(async () => {
  site.page("/", htmlPage("Home", `<p>Welcome home.</p><a href="/a">a</a>`)).page("/a", htmlPage("A", "<p>Page a.</p>")).page("/robots.txt", "");
  await site.start();
  serve = await startServe({ a: { planTokens: 1_000_000 } });
});
afterAll(async () => {
  await serve?.stop();
  await site.stop();
});

describe("the list of client-only keys", () => {
  it("names each key once, with where it is accepted and what serve does with it", () => {
    expect(CLIENT_KEYS.map((k) => [k.key, k.accepted])).toEqual([
      ["origin", "every body"],
      ["integration", "every body"],
      ["__experimental_", "every body"],
      ["fastMode", "work bodies"],
      ["zeroDataRetention", "work bodies"],
    ]);
    for (const key of CLIENT_KEYS) expect(key.effect.length).toBeGreaterThan(5);
  });

  it("strips them from the top level and from scrapeOptions of a work body; other bodies keep the work keys", () => {
    const body = { url: "u", origin: "python-sdk@3.3.2", fastMode: false, __experimental_x: 1, zeroDataRetention: false, scrapeOptions: { fastMode: true, formats: [] } };
    expect(withoutClientKeys(body, "work")).toEqual({ url: "u", scrapeOptions: { formats: [] } });
    expect(withoutClientKeys(body, "other")).toEqual({ url: "u", fastMode: false, zeroDataRetention: false, scrapeOptions: { fastMode: true, formats: [] } });
    expect(() => withoutClientKeys({ origin: 3 }, "other")).toThrow("origin must be a string");
    expect(() => withoutClientKeys({ fastMode: "yes" }, "work")).toThrow("fastMode must be a boolean");
  });
});

describe("serve accepts what the SDKs send", () => {
  it("a scrape with fastMode, zeroDataRetention false, origin, integration and an __experimental_ switch", async () => {
    const r = await serve.call("POST", "/v2/scrape", {
      body: { url: `${site.url}/a`, formats: ["markdown"], fastMode: false, zeroDataRetention: false, origin: "python-sdk@3.3.2", integration: "n8n", __experimental_cache: true },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data.markdown).toContain("Page a.");
  });

  it("a crawl with zeroDataRetention false and fastMode in its scrapeOptions", async () => {
    const r = await serve.call("POST", "/v2/crawl", { body: { url: site.url, limit: 2, sitemap: "skip", zeroDataRetention: false, scrapeOptions: { fastMode: false, formats: ["markdown"] }, origin: "python-sdk@3.3.2" } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const done = await waitFor(() => serve.call("GET", `/v2/crawl/${r.body.id}`), (s) => s.body.status !== "scraping");
    expect(done.body.status).toBe("completed");
  });

  it("zeroDataRetention true is a 400 that says why", async () => {
    for (const [path, body] of [
      ["/v2/scrape", { url: `${site.url}/a`, zeroDataRetention: true }],
      ["/v2/batch/scrape", { urls: [`${site.url}/a`], zeroDataRetention: true }],
      ["/v2/crawl", { url: site.url, zeroDataRetention: true }],
    ] as const) {
      const r = await serve.call("POST", path, { body });
      expect(r.status, path).toBe(400);
      expect(r.body.error).toContain("zeroDataRetention: true is not available on scrapeline serve");
    }
  });

  it("a typo is still refused, with did you mean", async () => {
    const r = await serve.call("POST", "/v2/scrape", { body: { url: `${site.url}/a`, formatz: ["markdown"], fastMode: false } });
    expect(r.status).toBe(400);
    expect(r.body.error).toContain('unknown key "formatz"');
    expect(r.body.error).toContain('did you mean "formats"');
  });

  it("origin on the bodies that are not the work of a step (monitor, params preview)", async () => {
    const monitor = await serve.call("POST", "/v2/monitor", { body: { name: "m", schedule: { cron: "0 * * * *" }, targets: [{ type: "scrape", urls: [`${site.url}/a`] }], origin: "js-sdk@4.42.0" } });
    expect(monitor.status, JSON.stringify(monitor.body)).toBe(200);
    const patched = await serve.call("PATCH", `/v2/monitor/${monitor.body.data.id}`, { body: { name: "n", origin: "js-sdk@4.42.0" } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const preview = await serve.call("POST", "/v2/crawl/params-preview", { body: { url: site.url, prompt: "only the blog", origin: "js-sdk@4.42.0", integration: "x" } });
    expect(preview.status).toBe(200);
    // fastMode is a work key: a monitor body does not take it.
    const wrong = await serve.call("POST", "/v2/monitor", { body: { name: "m", schedule: { cron: "0 * * * *" }, targets: [{ type: "scrape", urls: [`${site.url}/a`] }], fastMode: true } });
    expect(wrong.status).toBe(400);
  });
});

describe("pipelines", () => {
  it("refuse the client-only keys, with a hint saying they come from the SDKs", () => {
    const text = `version: 1\nname: p\nsteps:\n  - id: s\n    scrape:\n      url: https://example.com\n      fastMode: false\n`;
    const found = loadPipelineText("p.yaml", text).diagnostics.find((d) => d.code === "unknown-key");
    expect(found).toMatchObject({ line: 7, column: 7, severity: "error", message: expect.stringContaining('unknown key "fastMode"') });
    expect(found?.hint).toBe(`"fastMode" is sent by the service's SDKs and means nothing in a pipeline: remove it`);
  });
});
