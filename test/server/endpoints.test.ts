import { readFileSync, existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey, listKeys, revokeKey } from "../../src/app/index.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { chainSite, startServe, waitFor, type Serve } from "./helpers.js";

let serve: Serve;
let site: FixtureSite;

beforeAll(async () => {
  site = await chainSite(5);
  site.page("/article", htmlPage("Article", "<p>Hello from the article.</p>"));
  serve = await startServe({ alpha: { planTokens: 10_000 }, beta: {} });
});
afterAll(async () => {
  await serve?.stop();
  await site?.stop();
});

describe("health and authentication", () => {
  it("answers /health without a key", async () => {
    const r = await serve.call("GET", "/health", { key: null });
    expect(r).toMatchObject({ status: 200, body: { status: "ok" } });
  });

  it("401 without a key and with an unknown key", async () => {
    const missing = await serve.call("POST", "/v2/scrape", { key: null, body: { url: `${site.url}/article` } });
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ success: false, error: "Unauthorized: Token missing" });
    const invalid = await serve.call("GET", "/v2/team/token-usage", { key: "fc-00000000000000000000000000000000" });
    expect(invalid.status).toBe(401);
    expect(invalid.body).toEqual({ success: false, error: "Unauthorized: Invalid token" });
  });

  it("404 for an unknown path", async () => {
    expect((await serve.call("GET", "/v2/nothing")).status).toBe(404);
  });
});

describe("POST /v2/scrape", () => {
  it("returns the Document with creditsUsed", async () => {
    const r = await serve.call("POST", "/v2/scrape", { body: { url: `${site.url}/article`, formats: ["markdown", "links"], origin: "js-sdk@4.42.0" } });
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(r.body.data.markdown).toContain("Hello from the article.");
    expect(r.body.data.links).toBeInstanceOf(Array);
    expect(r.body.data.metadata).toMatchObject({ sourceURL: `${site.url}/article`, statusCode: 200, creditsUsed: 1, title: "Article" });
  });

  it("400 naming an unknown key", async () => {
    const r = await serve.call("POST", "/v2/scrape", { body: { url: `${site.url}/article`, formatz: ["markdown"] } });
    expect(r.status).toBe(400);
    expect(r.body.success).toBe(false);
    expect(r.body.error).toContain('"formatz"');
    expect(r.body.error).toContain('did you mean "formats"');
  });

  it("400 on malformed JSON and on invalid values", async () => {
    const bad = await serve.call("POST", "/v2/scrape", { raw: "{not json" });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, error: "Bad request, malformed JSON" });
    const timeout = await serve.call("POST", "/v2/scrape", { body: { url: `${site.url}/article`, timeout: 5 } });
    expect(timeout.status).toBe(400);
    expect(timeout.body.error).toContain("timeout");
  });

  it("an unreachable page is an error with success false", async () => {
    const r = await serve.call("POST", "/v2/scrape", { body: { url: "http://127.0.0.1:1/", timeout: 2000 } });
    expect(r.status).toBe(500);
    expect(r.body.success).toBe(false);
    expect(typeof r.body.error).toBe("string");
  });
});

describe("POST /v2/map and params-preview", () => {
  it("maps the site", async () => {
    const r = await serve.call("POST", "/v2/map", { body: { url: site.url, sitemap: "skip" } });
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    const urls = r.body.links.map((l: { url: string }) => l.url);
    expect(urls).toContain(`${site.url}/p/0`);
    expect(r.body.links[0]).toHaveProperty("url");
  });

  it("derives crawl options from a prompt", async () => {
    const r = await serve.call("POST", "/v2/crawl/params-preview", { body: { url: site.url, prompt: "only blog posts, at most 50 pages" } });
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(r.body.data.url).toBe(`${site.url}/`);
    expect(r.body.data.limit).toBe(50);
    const bad = await serve.call("POST", "/v2/crawl/params-preview", { body: { url: site.url, prompt: "x", extra: 1 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain("extra");
  });
});

describe("crawl and batch jobs", () => {
  it("crawls, reports status and pages, and keeps teams apart", async () => {
    const start = await serve.call("POST", "/v2/crawl", { body: { url: site.url, limit: 10, sitemap: "skip", scrapeOptions: { formats: ["markdown"] } } });
    expect(start.status).toBe(200);
    expect(start.body).toMatchObject({ success: true, id: expect.any(String) });
    expect(start.body.url).toBe(`${serve.server.url}/v2/crawl/${start.body.id}`);
    const done = await waitFor(() => serve.call("GET", `/v2/crawl/${start.body.id}`), (r) => r.body.status !== "scraping");
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ success: true, status: "completed", completed: 7, total: 7, creditsUsed: 7 }); // /, /p/0-4 and the 404 of /p/5
    expect(done.body.expiresAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(done.body.data).toHaveLength(7);
    expect(done.body.next).toBeUndefined();

    const paged = await serve.call("GET", `/v2/crawl/${start.body.id}?limit=4`);
    expect(paged.body.data).toHaveLength(4);
    expect(paged.body.next).toBe(`${serve.server.url}/v2/crawl/${start.body.id}?limit=4&skip=4`);
    const rest = await serve.call("GET", new URL(paged.body.next).pathname + new URL(paged.body.next).search);
    expect(rest.body.data).toHaveLength(3);
    expect(rest.body.next).toBeUndefined();

    const errors = await serve.call("GET", `/v2/crawl/${start.body.id}/errors`);
    expect(errors.body).toEqual({ success: true, errors: [], robotsBlocked: [] });
    const other = await serve.call("GET", `/v2/crawl/${start.body.id}`, { key: serve.keys.beta });
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ success: false, error: "Job not found" });
    const cancelOther = await serve.call("DELETE", `/v1/crawl/${start.body.id}`, { key: serve.keys.beta });
    expect(cancelOther.status).toBe(404);
    expect(cancelOther.body).toEqual({ error: "crawl job not found" });
  });

  it("DELETE /v1 and /v2 cancel a crawl", async () => {
    const start = await serve.call("POST", "/v2/crawl", { body: { url: site.url, limit: 10, sitemap: "skip" } });
    const v1 = await serve.call("DELETE", `/v1/crawl/${start.body.id}`);
    expect(v1).toMatchObject({ status: 200, body: { status: "cancelled" } });
    const v2 = await serve.call("DELETE", `/v2/crawl/${start.body.id}`);
    expect(v2).toMatchObject({ status: 200, body: { status: "cancelled" } });
    const status = await serve.call("GET", `/v2/crawl/${start.body.id}`);
    expect(status.body.status).toBe("cancelled");
    const missing = await serve.call("DELETE", "/v2/crawl/00000000-0000-0000-0000-000000000000");
    expect(missing).toMatchObject({ status: 404, body: { error: "crawl job not found" } });
  });

  it("batch scrapes with invalid URLs reported", async () => {
    const start = await serve.call("POST", "/v2/batch/scrape", { body: { urls: [`${site.url}/p/0`, `${site.url}/p/1`, "not a url"], formats: ["markdown"] } });
    expect(start.status).toBe(200);
    expect(start.body).toMatchObject({ success: true, invalidURLs: ["not a url"] });
    expect(start.body.url).toBe(`${serve.server.url}/v2/batch/scrape/${start.body.id}`);
    const done = await waitFor(() => serve.call("GET", `/v2/batch/scrape/${start.body.id}`), (r) => r.body.status !== "scraping");
    expect(done.body).toMatchObject({ success: true, status: "completed", completed: 2, total: 2, creditsUsed: 2 });
    expect(done.body.data.map((d: { metadata: { sourceURL: string } }) => d.metadata.sourceURL).sort()).toEqual([`${site.url}/p/0`, `${site.url}/p/1`]);
    expect((await serve.call("GET", `/v2/batch/scrape/${start.body.id}/errors`)).body).toEqual({ success: true, errors: [], robotsBlocked: [] });
    expect((await serve.call("DELETE", `/v2/batch/scrape/${start.body.id}`)).body).toEqual({ status: "cancelled" });
    expect((await serve.call("GET", `/v2/crawl/${start.body.id}`)).status).toBe(404);
  });

  it("a batch that lists a URL twice scrapes it once, is billed once, and says so", async () => {
    const start = await serve.call("POST", "/v2/batch/scrape", { body: { urls: [`${site.url}/p/2`, `${site.url}/p/3`, `${site.url}/p/2`] } });
    expect(start.status).toBe(200);
    expect(start.body.warning).toContain("1 URL(s) were listed more than once in urls and are scraped once");
    const done = await waitFor(() => serve.call("GET", `/v2/batch/scrape/${start.body.id}`), (r) => r.body.status !== "scraping");
    expect(done.body).toMatchObject({ status: "completed", completed: 2, total: 2, creditsUsed: 2 });
  });

  it("lists a batch's failed pages under /errors", async () => {
    const start = await serve.call("POST", "/v2/batch/scrape", { body: { urls: [`${site.url}/p/0`, "http://127.0.0.1:1/gone"], timeout: 2000 } });
    const done = await waitFor(() => serve.call("GET", `/v2/batch/scrape/${start.body.id}`), (r) => r.body.status !== "scraping");
    expect(done.body).toMatchObject({ status: "completed", completed: 1, total: 1 });
    const errors = await serve.call("GET", `/v2/batch/scrape/${start.body.id}/errors`);
    expect(errors.body.errors).toEqual([{ id: expect.any(String), timestamp: expect.any(String), url: "http://127.0.0.1:1/gone", code: "network", error: expect.any(String) }]);
  });

  it("a crawl body with an unknown key is refused", async () => {
    const r = await serve.call("POST", "/v2/crawl", { body: { url: site.url, limitt: 3 } });
    expect(r.status).toBe(400);
    expect(r.body.error).toContain("limitt");
  });
});

describe("token usage", () => {
  it("falls as work is done: v1 counts Extract only, v2 every endpoint; teams are apart", async () => {
    const before = await serve.call("GET", "/v1/team/token-usage");
    expect(before.status).toBe(200);
    expect(before.body.success).toBe(true);
    expect(Object.keys(before.body.data).sort()).toEqual(["billing_period_end", "billing_period_start", "plan_tokens", "remaining_tokens"]);
    expect(before.body.data.plan_tokens).toBe(10_000);
    const beforeV2 = await serve.call("GET", "/v2/team/token-usage");
    await serve.call("POST", "/v2/scrape", { body: { url: `${site.url}/p/3`, maxAge: 0 } });
    const v1 = await serve.call("GET", "/v1/team/token-usage");
    const v2 = await serve.call("GET", "/v2/team/token-usage");
    expect(v1.body.data.remaining_tokens).toBe(before.body.data.remaining_tokens);
    expect(v2.body.data.remainingTokens).toBe(beforeV2.body.data.remainingTokens - 15);
    expect(v2.body).toEqual({ success: true, data: { billingPeriodStart: v1.body.data.billing_period_start, billingPeriodEnd: v1.body.data.billing_period_end, planTokens: v1.body.data.plan_tokens, remainingTokens: expect.any(Number) } });

    const extract = await serve.call("POST", "/v1/extract", { body: { urls: [`${site.url}/article`], schema: { type: "object", properties: { title: { type: "string" } } } } });
    const done = await waitFor(() => serve.call("GET", `/v1/extract/${extract.body.id}`), (r) => r.body.status !== "processing");
    const charged = 15 * done.body.creditsUsed;
    expect(charged).toBeGreaterThan(0);
    expect((await serve.call("GET", "/v1/team/token-usage")).body.data.remaining_tokens).toBe(v1.body.data.remaining_tokens - charged);
    expect((await serve.call("GET", "/v2/team/token-usage")).body.data.remainingTokens).toBe(v2.body.data.remainingTokens - charged);
    const beta = await serve.call("GET", "/v2/team/token-usage", { key: serve.keys.beta });
    expect(beta.body.data.remainingTokens).toBe(beta.body.data.planTokens);
  });
});

describe("keys", () => {
  it("are stored hashed, listed without secrets, and stop working once revoked", async () => {
    const { key, id } = createKey(serve.db, "beta");
    expect(key).toMatch(/^fc-[0-9a-f]{32}$/);
    expect((await serve.call("GET", "/v2/team/token-usage", { key })).status).toBe(200);
    expect(JSON.stringify(listKeys(serve.db))).not.toContain(key);
    for (const file of [serve.db, `${serve.db}-wal`]) if (existsSync(file)) expect(readFileSync(file).includes(key)).toBe(false);
    revokeKey(serve.db, String(id));
    const r = await serve.call("GET", "/v2/team/token-usage", { key });
    expect(r).toMatchObject({ status: 401, body: { success: false, error: "Unauthorized: Invalid token" } });
    // The team's other key still works.
    expect((await serve.call("GET", "/v2/team/token-usage", { key: serve.keys.beta })).status).toBe(200);
  });
});

describe("change tracking", () => {
  it("compares with the team's own previous scrape", async () => {
    const body = { url: `${site.url}/p/2`, formats: ["markdown", { type: "changeTracking", modes: ["git-diff"] }] };
    const first = await serve.call("POST", "/v2/scrape", { body });
    expect(first.body.data.changeTracking).toMatchObject({ changeStatus: "new", previousScrapeAt: null, visibility: "visible" });
    const second = await serve.call("POST", "/v2/scrape", { body });
    expect(second.body.data.changeTracking).toMatchObject({ changeStatus: "same", visibility: "visible" });
    const other = await serve.call("POST", "/v2/scrape", { key: serve.keys.beta, body });
    expect(other.body.data.changeTracking.changeStatus).toBe("new");
  });
});
