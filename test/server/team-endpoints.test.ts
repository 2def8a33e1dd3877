import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chainSite, startServe, type Serve } from "./helpers.js";
import type { FixtureSite } from "../helpers/site.js";

/** The v2 read endpoints the SDKs call besides the work: usage, queue, concurrency, listings, a scrape read again. */

let serve: Serve;
let site: FixtureSite;
let slow: FixtureSite;

beforeAll(async () => {
  site = await chainSite(3);
  slow = await chainSite(30, { slow: true });
  serve = await startServe({ a: { planTokens: 15_000, maxConcurrentJobs: 4 }, b: {} });
});
afterAll(async () => {
  await serve?.stop();
  await site?.stop();
  await slow?.stop();
});

describe("usage", () => {
  it("credit usage is token usage in credits, and falls with the work", async () => {
    const before = await serve.call("GET", "/v2/team/credit-usage");
    expect(before.status).toBe(200);
    expect(before.body.data).toMatchObject({ remainingCredits: 1000, planCredits: 1000 });
    const tokens = await serve.call("GET", "/v2/team/token-usage");
    expect(before.body.data.billingPeriodStart).toBe(tokens.body.data.billingPeriodStart);
    expect(before.body.data.billingPeriodEnd).toBe(tokens.body.data.billingPeriodEnd);
    await serve.call("POST", "/v2/scrape", { body: { url: `${site.url}/p/0`, maxAge: 0 } });
    const after = await serve.call("GET", "/v2/team/credit-usage");
    expect(after.body.data.remainingCredits).toBe(999);
  });

  it("historical usage lists the billing periods with what each used (credits and tokens)", async () => {
    const credits = await serve.call("GET", "/v2/team/credit-usage/historical?byApiKey=true");
    expect(credits.status).toBe(200);
    expect(credits.body.success).toBe(true);
    expect(credits.body.periods).toHaveLength(1);
    const period = credits.body.periods[0];
    expect(period.creditsUsed).toBeGreaterThanOrEqual(1);
    expect(Date.parse(period.endDate) - Date.parse(period.startDate)).toBe(30 * 24 * 3600_000);
    const tokens = await serve.call("GET", "/v2/team/token-usage/historical");
    expect(tokens.body.periods[0].tokensUsed).toBe(period.creditsUsed * 15);
    const other = await serve.call("GET", "/v2/team/credit-usage/historical", { key: serve.keys.b! });
    expect(other.body.periods[0].creditsUsed).toBe(0);
  });
});

describe("queue and concurrency", () => {
  it("count the team's running jobs against its limit, and name the latest success", async () => {
    const idle = await serve.call("GET", "/v2/concurrency-check");
    expect(idle.body).toEqual({ success: true, concurrency: 0, maxConcurrency: 4 });
    const started = await serve.call("POST", "/v2/crawl", { body: { url: slow.url, limit: 30, sitemap: "skip" } });
    expect(started.status).toBe(200);
    const busy = await serve.call("GET", "/v2/concurrency-check");
    const queue = await serve.call("GET", "/v2/team/queue-status");
    const ongoing = await serve.call("GET", "/v2/crawl/ongoing");
    await serve.call("DELETE", `/v2/crawl/${started.body.id}`);
    expect(busy.body.concurrency).toBe(1);
    expect(queue.body).toMatchObject({ success: true, jobsInQueue: 1, activeJobsInQueue: 1, waitingJobsInQueue: 0, maxConcurrency: 4 });
    expect(Date.parse(queue.body.mostRecentSuccess)).toBeGreaterThan(0);
    expect(ongoing.body.crawls.map((c: { id: string }) => c.id)).toEqual([started.body.id]);
    const other = await serve.call("GET", "/v2/team/queue-status", { key: serve.keys.b! });
    expect(other.body).toMatchObject({ jobsInQueue: 0, mostRecentSuccess: null });
  });
});

describe("a scrape read again", () => {
  it("GET /v2/scrape/{id} answers the stored Document of the team's scrape; another team's is a 404", async () => {
    const scraped = await serve.call("POST", "/v2/scrape", { body: { url: `${site.url}/p/1`, formats: ["markdown", "links"] } });
    const id = scraped.body.data.metadata.scrapeId;
    const again = await serve.call("GET", `/v2/scrape/${id}`);
    expect(again.status).toBe(200);
    expect(again.body.data.markdown).toBe(scraped.body.data.markdown);
    expect(again.body.data.links).toEqual(scraped.body.data.links);
    expect(again.body.data.metadata.scrapeId).toBe(id);
    expect((await serve.call("GET", `/v2/scrape/${id}`, { key: serve.keys.b! })).status).toBe(404);
    expect((await serve.call("GET", "/v2/scrape/00000000-0000-0000-0000-000000000000")).status).toBe(404);
  });
});

describe("listings", () => {
  it("GET /v2/agent and GET /v2/browser list the team's (none yet)", async () => {
    const agents = await serve.call("GET", "/v2/agent");
    expect(agents.body).toEqual({ success: true, agents: [] });
    expect((await serve.call("GET", "/v2/agent?before=abc")).status).toBe(400);
    const browsers = await serve.call("GET", "/v2/browser?status=active");
    expect(browsers.body).toEqual({ success: true, sessions: [] });
  });
});
