import Firecrawl from "@mendable/firecrawl-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeSearxng, webResults } from "../helpers/searxng.js";
import { FixtureSite } from "../helpers/site.js";
import { chainSite, startServe, type Serve } from "./helpers.js";

// The service's official JS SDK, pointed at scrapeline serve (it declares Node 22 and runs on 20).
let serve: Serve;
let site: FixtureSite;
let slow: FixtureSite;
let client: Firecrawl;
let searx: FakeSearxng;

beforeAll(async () => {
  site = await chainSite(120);
  slow = await chainSite(40, { slow: true });
  searx = await new FakeSearxng({ results: { general: webResults(`${site.url}/p`, 5, ""), news: [{ url: `${site.url}/p/3`, title: "Page three in the news", content: "news", publishedDate: "2026-11-24T09:00:00" }] } }).start();
  serve = await startServe({ sdk: { planTokens: 1_000_000 } }, { env: { SCRAPELINE_SEARXNG_URL: searx.url } });
  client = new Firecrawl({ apiKey: serve.keys.sdk!, apiUrl: serve.server.url });
});
afterAll(async () => {
  await serve?.stop();
  await site?.stop();
  await slow?.stop();
  await searx?.stop();
});

describe("@mendable/firecrawl-js against serve", () => {
  it("scrapes", async () => {
    const doc = await client.scrape(`${site.url}/p/1`, { formats: ["markdown", "links"] });
    expect(doc.markdown).toContain("Text of page 1.");
    expect(doc.links).toContain(`${site.url}/p/2`);
    expect(doc.metadata?.creditsUsed).toBe(1);
  });

  it("searches, web and news, and scrapes the results when formats ask", async () => {
    const found = await client.search("chain pages", { limit: 3, sources: ["web", "news"] });
    expect(found.web?.map((r) => (r as { url: string }).url)).toEqual([1, 2, 3].map((i) => `${site.url}/p/${i}`));
    expect(found.news?.[0]).toMatchObject({ title: "Page three in the news", url: `${site.url}/p/3`, position: 1 });
    const scraped = await client.search("chain pages", { limit: 1, scrapeOptions: { formats: ["markdown"] } });
    expect((scraped.web?.[0] as { markdown?: string }).markdown).toContain("Text of page 1.");
  });

  it("maps", async () => {
    const result = await client.map(site.url, { sitemap: "skip", limit: 500 });
    expect(result.links.length).toBeGreaterThan(100);
    expect(result.links.map((l) => l.url)).toContain(`${site.url}/p/119`);
  });

  it("crawls more than a status page holds, following next", async () => {
    const job = await client.crawl(site.url, { limit: 200, sitemap: "skip", scrapeOptions: { formats: ["markdown"] }, pollInterval: 1 });
    expect(job.status).toBe("completed");
    // /, /p/0 … /p/119, and the 404 of /p/120
    expect(job.total).toBe(122);
    expect(job.data).toHaveLength(122);
    expect(new Set(job.data.map((d) => d.metadata?.sourceURL)).size).toBe(122);
    expect(job.creditsUsed).toBe(122);
  });

  it("pages through a status by hand", async () => {
    const started = await client.startCrawl(site.url, { limit: 105, sitemap: "skip" });
    let status = await client.getCrawlStatus(started.id, { autoPaginate: false });
    while (status.status === "scraping") status = await client.getCrawlStatus(started.id, { autoPaginate: false });
    expect(status.status).toBe("completed");
    expect(status.data).toHaveLength(100);
    expect(status.next).toBe(`${serve.server.url}/v2/crawl/${started.id}?skip=100`);
  });

  it("cancels a crawl", async () => {
    const started = await client.startCrawl(slow.url, { limit: 40, sitemap: "skip" });
    expect(await client.cancelCrawl(started.id)).toBe(true);
    const status = await client.getCrawlStatus(started.id);
    expect(status.status).toBe("cancelled");
  });

  it("reports token usage falling with the work", async () => {
    const before = await client.getTokenUsage();
    expect(before.planTokens).toBe(1_000_000);
    await client.scrape(`${site.url}/p/7`, { formats: ["markdown"], maxAge: 0 });
    const after = await client.getTokenUsage();
    expect(before.remainingTokens - after.remainingTokens).toBe(15);
    expect(after.billingPeriodStart).toMatch(/^\d{4}-/);
  });

  it("extracts, waiting for the job to finish", async () => {
    const schema = { type: "object", properties: { title: { type: "string" } } };
    const result = await client.extract({ urls: [`${site.url}/p/3`], schema, pollInterval: 1 } as never);
    expect(result).toMatchObject({ success: true, status: "completed", data: { title: "Page 3" } });
  });

  it("surfaces errors with their status", async () => {
    const stranger = new Firecrawl({ apiKey: "fc-not-a-key", apiUrl: serve.server.url });
    await expect(stranger.scrape(`${site.url}/p/1`)).rejects.toMatchObject({ status: 401 });
  });
});
