import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeSearxng, webResults } from "../helpers/searxng.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { chainSite, startServe, waitFor, type Serve } from "./helpers.js";

// The v1 API of serve, driven over raw HTTP: v1 request forms and defaults, v1 answer shapes, errors.
let serve: Serve;
let site: FixtureSite;
let searx: FakeSearxng;

const product = (name: string, price: number) =>
  `<html><head><title>${name}</title><script type="application/ld+json">${JSON.stringify({ "@type": "Product", name, offers: { "@type": "Offer", price } })}</script></head><body><h1>${name}</h1><p>Costs ${price}.</p></body></html>`;
const productSchema = { type: "object", properties: { name: { type: "string" }, price: { type: "number" } } };

beforeAll(async () => {
  site = new FixtureSite();
  const links = Array.from({ length: 6 }, (_, i) => `<a href="/p/${i}">page ${i}</a>`).join(" ");
  site.page("/", htmlPage("Home", `<p>Index</p>${links}`));
  site.page("/robots.txt", "");
  for (let i = 0; i < 6; i++) site.page(`/p/${i}`, htmlPage(`Page ${i}`, `<p>Text of page ${i}.</p>`));
  site.page("/kettle", product("Kettle", 24.5));
  await site.start();
  searx = await new FakeSearxng({ results: { general: webResults(`${site.url}/p`, 3, "") } }).start();
  serve = await startServe({ alpha: { planTokens: 150_000 }, beta: {} }, { env: { SCRAPELINE_SEARXNG_URL: searx.url } });
});
afterAll(async () => {
  await serve?.stop();
  await site?.stop();
  await searx?.stop();
});

const finished = (path: string) => waitFor(() => serve.call("GET", path), (r) => r.body?.status !== "scraping" && r.body?.status !== "processing");

describe("POST /v1/scrape", () => {
  it("answers v1's document: format extract with the v1 `extract` options gives data.extract, not json", async () => {
    const r = await serve.call("POST", "/v1/scrape", { body: { url: `${site.url}/kettle`, formats: ["markdown", "extract"], extract: { schema: productSchema }, origin: "python-sdk@2.0.0", timeout: 30000 } });
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(r.body.data.extract).toEqual({ name: "Kettle", price: 24.5 });
    expect(r.body.data).not.toHaveProperty("json");
    expect(r.body.data.markdown).toContain("Costs 24.5");
    expect(r.body.data.metadata).toMatchObject({ sourceURL: `${site.url}/kettle`, statusCode: 200 });
  });

  it("format json with jsonOptions gives data.json", async () => {
    const r = await serve.call("POST", "/v1/scrape", { body: { url: `${site.url}/kettle`, formats: ["json"], jsonOptions: { schema: productSchema } } });
    expect(r.status).toBe(200);
    expect(r.body.data.json).toEqual({ name: "Kettle", price: 24.5 });
    expect(r.body.data).not.toHaveProperty("extract");
  });

  it("takes v1's defaults: maxAge 0 fetches the page every time, where v2 answers from the cache", async () => {
    const path = "/p/5";
    const before = site.hits.get(path) ?? 0;
    for (let i = 0; i < 2; i++) expect((await serve.call("POST", "/v1/scrape", { body: { url: `${site.url}${path}` } })).status).toBe(200);
    expect(site.hits.get(path)).toBe(before + 2);
    for (let i = 0; i < 2; i++) expect((await serve.call("POST", "/v2/scrape", { body: { url: `${site.url}${path}` } })).status).toBe(200);
    expect(site.hits.get(path)).toBe(before + 3);
  });

  it("maps v1's proxy stealth, parsePDF and screenshot@fullPage names, and refuses what only v2 has", async () => {
    const ok = await serve.call("POST", "/v1/scrape", { body: { url: `${site.url}/p/1`, proxy: "stealth", parsePDF: false, zeroDataRetention: false } });
    expect(ok.status).toBe(200);
    const summary = await serve.call("POST", "/v1/scrape", { body: { url: `${site.url}/p/1`, formats: ["summary"] } });
    expect(summary.status).toBe(400);
    expect(summary.body.error).toMatch(/format summary is not a v1 format/);
    const parsers = await serve.call("POST", "/v1/scrape", { body: { url: `${site.url}/p/1`, parsers: [] } });
    expect(parsers.status).toBe(400);
    expect(parsers.body.error).toMatch(/parsers is a v2 field; v1 has parsePDF/);
    const unknown = await serve.call("POST", "/v1/scrape", { body: { url: `${site.url}/p/1`, onlyMainContnet: true } });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ success: false, code: "BAD_REQUEST", error: expect.stringMatching(/^Unrecognized key in body -- .*onlyMainContnet/) });
    const both = await serve.call("POST", "/v1/scrape", { body: { url: `${site.url}/p/1`, formats: ["json"], extract: {}, jsonOptions: {} } });
    expect(both.status).toBe(400);
    expect(both.body.error).toMatch(/extract and jsonOptions/);
    const agent = await serve.call("POST", "/v1/scrape", { body: { url: `${site.url}/p/1`, agent: { model: "FIRE-1" } } });
    expect(agent.status).toBe(400);
    expect(agent.body.error).toMatch(/\/v2\/agent/);
  });
});

describe("POST /v1/map", () => {
  it("answers links as plain URLs; ignoreSitemap and sitemapOnly are the sitemap setting", async () => {
    const r = await serve.call("POST", "/v1/map", { body: { url: site.url, ignoreSitemap: true, useIndex: true, limit: 50, timeout: 30000 } });
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(r.body.links).toContain(`${site.url}/p/3`);
    expect(r.body.links.every((l: unknown) => typeof l === "string")).toBe(true);
    const both = await serve.call("POST", "/v1/map", { body: { url: site.url, ignoreSitemap: true, sitemapOnly: true } });
    expect(both.status).toBe(400);
    expect(both.body.error).toMatch(/ignoreSitemap and sitemapOnly/);
  });
});

describe("POST /v1/crawl", () => {
  it("maps v1's crawl options, answers a /v1 status URL, and pages the status with a /v1 next", async () => {
    const start = await serve.call("POST", "/v1/crawl", { body: { url: site.url, maxDepth: 3, ignoreSitemap: true, allowBackwardLinks: false, limit: 10, scrapeOptions: { formats: ["markdown", "links"] } } });
    expect(start.status).toBe(200);
    expect(start.body).toMatchObject({ success: true, id: expect.any(String), url: `${serve.server.url}/v1/crawl/${start.body.id}` });
    const done = await finished(`/v1/crawl/${start.body.id}`);
    expect(done.body).toMatchObject({ success: true, status: "completed", completed: 7, total: 7, creditsUsed: 7, expiresAt: expect.any(String) });
    expect(done.body.data).toHaveLength(7);
    const first = await serve.call("GET", `/v1/crawl/${start.body.id}?limit=3`);
    expect(first.body.data).toHaveLength(3);
    expect(first.body.next).toBe(`${serve.server.url}/v1/crawl/${start.body.id}?limit=3&skip=3`);
    const errors = await serve.call("GET", `/v1/crawl/${start.body.id}/errors`);
    expect(errors.body).toEqual({ success: true, errors: [], robotsBlocked: [] });
    const active = await serve.call("GET", "/v1/crawl/active");
    expect(active.body).toEqual({ success: true, crawls: [] });
  });

  it("refuses v2's own forms on v1 and an unknown crawl id", async () => {
    const prompt = await serve.call("POST", "/v1/crawl", { body: { url: site.url, scrapeOptions: { formats: [{ type: "markdown" }] } } });
    expect(prompt.status).toBe(400);
    expect(prompt.body.error).toMatch(/v1 formats are names, not objects/);
    const missing = await serve.call("GET", "/v1/crawl/00000000-0000-0000-0000-000000000000");
    expect(missing.status).toBe(404);
    const cancel = await serve.call("DELETE", "/v1/crawl/00000000-0000-0000-0000-000000000000");
    expect(cancel).toMatchObject({ status: 404, body: { error: "crawl job not found" } });
  });
});

describe("POST /v1/batch/scrape", () => {
  it("fails on an invalid URL unless ignoreInvalidURLs (v1's default is false), and is polled at /v1/batch/scrape and /v1/crawl", async () => {
    const refused = await serve.call("POST", "/v1/batch/scrape", { body: { urls: [`${site.url}/p/1`, "not a url"] } });
    expect(refused.status).toBe(400);
    const start = await serve.call("POST", "/v1/batch/scrape", { body: { urls: [`${site.url}/p/1`, `${site.url}/kettle`, "not a url"], ignoreInvalidURLs: true, formats: ["extract"], extract: { schema: productSchema } } });
    expect(start.status).toBe(200);
    expect(start.body).toMatchObject({ success: true, url: `${serve.server.url}/v1/batch/scrape/${start.body.id}`, invalidURLs: ["not a url"] });
    const done = await finished(`/v1/batch/scrape/${start.body.id}`);
    expect(done.body).toMatchObject({ success: true, status: "completed", completed: 2, total: 2 });
    const kettle = done.body.data.find((d: any) => d.metadata.sourceURL === `${site.url}/kettle`);
    expect(kettle.extract).toEqual({ name: "Kettle", price: 24.5 });
    expect(kettle).not.toHaveProperty("json");
    const viaCrawl = await serve.call("GET", `/v1/crawl/${start.body.id}`);
    expect(viaCrawl.body).toMatchObject({ status: "completed", completed: 2 });
    expect((await serve.call("GET", `/v1/batch/scrape/${start.body.id}/errors`)).body).toMatchObject({ errors: [], robotsBlocked: [] });
    const cancel = await serve.call("DELETE", `/v1/batch/scrape/${start.body.id}`);
    expect(cancel.body).toEqual({ status: "cancelled" });
  });
});

describe("POST /v1/search", () => {
  it("answers a flat list of web results", async () => {
    const r = await serve.call("POST", "/v1/search", { body: { query: "chain pages", limit: 2, lang: "en", country: "us", timeout: 60000 } });
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(r.body.data).toHaveLength(2);
    expect(r.body.data[0]).toMatchObject({ url: `${site.url}/p/1`, title: expect.any(String), description: expect.any(String) });
    const sources = await serve.call("POST", "/v1/search", { body: { query: "x", sources: ["news"] } });
    expect(sources.status).toBe(400);
    expect(sources.body.error).toMatch(/\/v2\/search/);
  });
});

describe("POST /v1/extract", () => {
  it("takes the fields v1 clients send (allowExternalLinks false, enableWebSearch false, schema null beside a prompt, systemPrompt)", async () => {
    const start = await serve.call("POST", "/v1/extract", { body: { urls: [`${site.url}/kettle`], schema: productSchema, allowExternalLinks: false, enableWebSearch: false, showSources: false, origin: "python-sdk@2.0.0" } });
    expect(start.status).toBe(200);
    const done = await finished(`/v1/extract/${start.body.id}`);
    expect(done.body).toMatchObject({ success: true, status: "completed", data: { name: "Kettle", price: 24.5 } });
    const external = await serve.call("POST", "/v1/extract", { body: { urls: [`${site.url}/kettle`], schema: productSchema, allowExternalLinks: true } });
    expect(external.status).toBe(400);
    expect(external.body.error).toMatch(/allowExternalLinks: true is not supported/);
    const nullSchema = await serve.call("POST", "/v1/extract", { body: { urls: [`${site.url}/kettle`], prompt: "name", schema: null, systemPrompt: "be brief", allowExternalLinks: false } });
    expect(nullSchema.status).toBe(200);
  });
});

describe("team and retired endpoints", () => {
  it("GET /v1/team/credit-usage answers v1's snake_case credits", async () => {
    const r = await serve.call("GET", "/v1/team/credit-usage");
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.data).sort()).toEqual(["billing_period_end", "billing_period_start", "plan_credits", "remaining_credits"]);
    expect(r.body.data.plan_credits).toBe(10_000);
    const tokens = await serve.call("GET", "/v2/team/token-usage");
    expect(r.body.data.remaining_credits).toBe(Math.floor(tokens.body.data.remainingTokens / 15));
  });

  it("/v1/deep-research and /v1/llmstxt say what replaced them", async () => {
    const deep = await serve.call("POST", "/v1/deep-research", { body: { query: "x" } });
    expect(deep.status).toBe(404);
    expect(deep.body.error).toMatch(/POST \/v2\/agent/);
    const llms = await serve.call("GET", "/v1/llmstxt/abc");
    expect(llms.status).toBe(404);
    expect(llms.body.error).toMatch(/v2 has no replacement/);
  });
});
