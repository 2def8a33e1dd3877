import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeSearxng, webResults } from "../helpers/searxng.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { startServe, type Serve } from "./helpers.js";

let serve: Serve;
let bare: Serve;
let site: FixtureSite;
let searx: FakeSearxng;

beforeAll(async () => {
  site = new FixtureSite();
  for (let i = 1; i <= 4; i++) site.page(`/r${i}`, htmlPage(`Result page ${i}`, `<p>Body of result ${i}.</p>`));
  await site.start();
  searx = await new FakeSearxng({
    results: {
      general: webResults(site.url, 4),
      images: [{ url: `${site.url}/r4`, title: "Pic", img_src: `${site.url}/pic.png`, resolution: "64x48" }],
    },
  }).start();
  serve = await startServe({ acme: { planTokens: 1_000_000 } }, { env: { SCRAPELINE_SEARXNG_URL: searx.url } });
  bare = await startServe({ other: { planTokens: 1_000_000 } });
});
afterAll(async () => {
  await serve?.stop();
  await bare?.stop();
  await site?.stop();
  await searx?.stop();
});

describe("POST /v2/search on serve", () => {
  it("answers from SearXNG in the service's shape, billed 2 per started 10 results", async () => {
    const { status, body } = await serve.call("POST", "/v2/search", { body: { query: "llamas", limit: 3, sources: ["web", { type: "images" }] } });
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, creditsUsed: 2, id: expect.any(String) });
    expect(body.data.web).toEqual([1, 2, 3].map((i) => ({ url: `${site.url}/r${i}`, title: `Result ${i}`, description: `About result ${i}`, position: i })));
    expect(body.data.images).toEqual([{ title: "Pic", imageUrl: `${site.url}/pic.png`, imageWidth: 64, imageHeight: 48, url: `${site.url}/r4`, position: 1 }]);
  });

  it("scrapes the results when formats ask, each result carrying its document", async () => {
    const { status, body } = await serve.call("POST", "/v2/search", { body: { query: "llamas", limit: 2, sources: ["web", "images"], scrapeOptions: { formats: ["markdown"] } } });
    expect(status).toBe(200);
    expect(body.data.web).toHaveLength(2);
    expect(body.data.images[0]).not.toHaveProperty("markdown");
    expect(body.data.web[0]).toMatchObject({ url: `${site.url}/r1`, title: "Result 1", position: 1, markdown: expect.stringContaining("Body of result 1.") });
    expect(body.data.web[0].metadata).toMatchObject({ statusCode: 200 });
    expect(body.creditsUsed).toBe(2 + 2); // 3 results (2 per started 10), 2 pages scraped: images are not
  });

  it("rejects a body the schema does not allow with a 400 naming the problem", async () => {
    const both = await serve.call("POST", "/v2/search", { body: { query: "x", includeDomains: ["a.com"], excludeDomains: ["b.com"] } });
    expect(both.status).toBe(400);
    expect(both.body.error).toContain("includeDomains and excludeDomains are both set");
    const limit = await serve.call("POST", "/v2/search", { body: { query: "x", limit: 500 } });
    expect(limit.status).toBe(400);
    const missing = await serve.call("POST", "/v2/search", { body: { limit: 5 } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toContain("query");
  });

  it("without a search provider answers 400 saying how to configure one", async () => {
    const { status, body } = await bare.call("POST", "/v2/search", { body: { query: "x" } });
    expect(status).toBe(400);
    expect(body.error).toContain("SCRAPELINE_SEARXNG_URL");
  });

  it("answers 408 when SearXNG does not answer within the body's timeout", async () => {
    searx.options.delayMs = 2500;
    try {
      const { status, body } = await serve.call("POST", "/v2/search", { body: { query: "slow", timeout: 1000 } });
      expect(status).toBe(408);
      expect(body).toMatchObject({ success: false, code: "SCRAPE_TIMEOUT", error: expect.stringContaining("did not answer within 1000 ms") });
    } finally {
      searx.options.delayMs = 0;
    }
  });

  it("needs a key", async () => {
    const { status } = await serve.call("POST", "/v2/search", { key: null, body: { query: "x" } });
    expect(status).toBe(401);
  });
});
