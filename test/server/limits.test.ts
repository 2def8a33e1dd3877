import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite } from "../helpers/site.js";
import { chainSite, startServe, waitFor, type Serve } from "./helpers.js";

let serve: Serve;
let site: FixtureSite;

beforeAll(async () => {
  site = await chainSite(30, { slow: true });
  serve = await startServe({ limited: { rateLimit: 10, planTokens: 100_000 }, single: { maxConcurrentJobs: 1 } });
});
afterAll(async () => {
  await serve?.stop();
  await site?.stop();
});

describe("rate limit", () => {
  it("429 with Retry-After past the limit; every accepted request is done and billed", async () => {
    const before = (await serve.call("GET", "/v2/team/token-usage")).body.data.remainingTokens;
    const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => serve.call("POST", "/v2/scrape", { body: { url: `${site.url}/p/${i}` } })));
    const ok = answers.filter((a) => a.status === 200);
    const limited = answers.filter((a) => a.status === 429);
    expect(ok).toHaveLength(10);
    expect(limited).toHaveLength(15);
    for (const a of limited) {
      expect(a.body.success).toBe(false);
      expect(a.body.error).toMatch(/^Rate limit exceeded.*retry after \d+s/);
      expect(Number(a.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    for (const a of ok) expect(a.body.data.metadata.creditsUsed).toBe(1);
    const after = (await serve.call("GET", "/v2/team/token-usage")).body.data.remainingTokens;
    expect(before - after).toBe(10 * 15);
    // Status polling and token usage are not work: they stay available.
    expect((await serve.call("GET", "/v1/team/token-usage")).status).toBe(200);
  });
});

describe("concurrent jobs", () => {
  it("a second crawl over the limit gets 429; the first finishes whole; a crawl cancelled mid-way keeps its pages", async () => {
    const key = serve.keys.single!;
    const first = await serve.call("POST", "/v2/crawl", { key, body: { url: site.url, limit: 12, sitemap: "skip" } });
    expect(first.status).toBe(200);
    const second = await serve.call("POST", "/v2/crawl", { key, body: { url: site.url, limit: 5 } });
    expect(second.status).toBe(429);
    expect(second.body.error).toMatch(/Concurrency limit exceeded.*retry after \d+s/);
    expect(second.headers.get("retry-after")).toBe("5");
    const done = await waitFor(() => serve.call("GET", `/v2/crawl/${first.body.id}`, { key }), (r) => r.body.status !== "scraping");
    expect(done.body).toMatchObject({ status: "completed", completed: 12, total: 12 });

    const crawl = await serve.call("POST", "/v2/crawl", { key, body: { url: site.url, limit: 30, sitemap: "skip" } });
    expect(crawl.status).toBe(200);
    await waitFor(() => serve.call("GET", `/v2/crawl/${crawl.body.id}`, { key }), (r) => r.body.completed >= 3);
    expect((await serve.call("DELETE", `/v2/crawl/${crawl.body.id}`, { key })).body).toEqual({ status: "cancelled" });
    // Once the pages in flight are stored, a new job may start and the cancelled one holds still.
    const next = await waitFor(() => serve.call("POST", "/v2/crawl", { key, body: { url: `${site.url}/p/29`, limit: 1 } }), (r) => r.status === 200);
    const cancelled = await serve.call("GET", `/v2/crawl/${crawl.body.id}`, { key });
    expect(cancelled.body.status).toBe("cancelled");
    expect(cancelled.body.completed).toBeGreaterThanOrEqual(3);
    expect(cancelled.body.completed).toBeLessThan(31);
    expect(cancelled.body.data).toHaveLength(cancelled.body.completed);
    expect(cancelled.body.creditsUsed).toBe(cancelled.body.completed);
    await waitFor(() => serve.call("GET", `/v2/crawl/${next.body.id}`, { key }), (r) => r.body.status === "completed");
  });
});
