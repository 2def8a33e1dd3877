import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { CrawlRequest, EngineWait } from "../../../src/core/index.js";
import { FirecrawlEngine } from "../../../src/engines/firecrawl/index.js";
import { FakeService, json, serviceDocument } from "../../helpers/fake-service.js";
import { crawlRequest } from "../crawl/helpers.js";

// A team limited to a few requests a minute is told to wait by 429s with Retry-After. The engine
// sleeps as asked (through the injected sleep, so the test does not) and says so first when the
// wait is longer than 2 s.

const service = new FakeService();
beforeAll(async () => void (await service.start()));
afterAll(async () => service.stop());
beforeEach(() => void (service.calls.length = 0));

function engineWithClock() {
  const slept: number[] = [];
  const engine = new FirecrawlEngine({ baseUrl: service.url, apiKey: "fc-test", sleep: async (ms) => void slept.push(ms) });
  return { engine, slept };
}

const LIMITED = { success: false, error: "Rate limit exceeded. Consumed (req/min): 6, Remaining (req/min): 0." };

async function readAll(engine: FirecrawlEngine, request: CrawlRequest, onWait?: (wait: EngineWait) => void): Promise<string[]> {
  const job = await engine.startCrawlJob(request, onWait ? { onWait } : {});
  const urls: string[] = [];
  for await (const document of job.pages(0)) urls.push(document.metadata.url);
  return urls;
}

describe("waits of the remote engine", () => {
  it("reports a Retry-After longer than 2 s on starting a crawl and on reading its status, then goes on", async () => {
    service.on("POST /v2/crawl", (_c, res, n) => (n === 1 ? json(res, 429, LIMITED, { "retry-after": "12" }) : json(res, 200, { success: true, id: "job-w" })));
    service.on("GET /v2/crawl/job-w", (_c, res, n) => {
      if (n === 1) return json(res, 429, LIMITED, { "retry-after": "48" });
      if (n === 2) return json(res, 200, { success: true, status: "scraping", completed: 1, total: 2, data: [serviceDocument("https://a.example/1", "one")] });
      return json(res, 200, { success: true, status: "completed", completed: 2, total: 2, data: [serviceDocument("https://a.example/2", "two")] });
    });
    const { engine, slept } = engineWithClock();
    const waits: EngineWait[] = [];
    const urls = await readAll(engine, crawlRequest("https://a.example/"), (w) => waits.push(w));
    expect(urls).toEqual(["https://a.example/1", "https://a.example/2"]);
    expect(waits).toEqual([
      { waitMs: 12_000, reason: expect.stringMatching(/^the service is rate limiting starting a crawl of https:\/\/a\.example\/ \(HTTP 429\): Rate limit exceeded/) },
      { waitMs: 48_000, reason: expect.stringMatching(/^the service is rate limiting the status of crawl job job-w \(HTTP 429\)/) },
    ]);
    // The engine slept what it reported; the polling pauses in between (under 2 s) are not reported.
    expect(slept.filter((ms) => ms > 2000)).toEqual([12_000, 48_000]);
    expect(slept.filter((ms) => ms <= 2000).length).toBeGreaterThan(0);
  });

  it("does not report short waits", async () => {
    service.on("POST /v2/crawl", (_c, res) => json(res, 200, { success: true, id: "job-s" }));
    service.on("GET /v2/crawl/job-s", (_c, res, n) =>
      n === 1 ? json(res, 429, LIMITED, { "retry-after": "1" }) : json(res, 200, { success: true, status: "completed", completed: 1, total: 1, data: [serviceDocument("https://b.example/1", "one")] }),
    );
    const { engine, slept } = engineWithClock();
    const waits: EngineWait[] = [];
    expect(await readAll(engine, crawlRequest("https://b.example/"), (w) => waits.push(w))).toEqual(["https://b.example/1"]);
    expect(slept).toContain(1000);
    expect(waits).toEqual([]);
  });

  it("reports the waits of a batch job and of a job taken up again", async () => {
    service.on("POST /v2/batch/scrape", (_c, res, n) => (n === 1 ? json(res, 429, LIMITED, { "retry-after": "30" }) : json(res, 200, { success: true, id: "batch-w" })));
    service.on("GET /v2/batch/scrape/batch-w", (_c, res) => json(res, 200, { success: true, status: "completed", completed: 1, total: 1, data: [serviceDocument("https://c.example/1", "one")] }));
    service.on("GET /v2/crawl/job-again", (_c, res, n) =>
      n === 1 ? json(res, 429, LIMITED, { "retry-after": "5" }) : json(res, 200, { success: true, status: "completed", completed: 0, total: 0, data: [] }),
    );
    const { engine } = engineWithClock();
    const waits: EngineWait[] = [];
    const batch = await engine.startBatchJob(["https://c.example/1", "https://c.example/2"], crawlRequest("x").scrapeOptions, { onWait: (w) => waits.push(w) });
    for await (const _ of batch.pages(0)) void _;
    const again = await engine.startCrawlJob(crawlRequest("https://d.example/"), { jobId: "job-again", onWait: (w) => waits.push(w) });
    for await (const _ of again.pages(0)) void _;
    expect(waits).toEqual([
      { waitMs: 30_000, reason: expect.stringMatching(/^the service is rate limiting starting a batch scrape of 2 URL\(s\) \(HTTP 429\)/) },
      { waitMs: 5_000, reason: expect.stringMatching(/^the service is rate limiting the status of crawl job job-again \(HTTP 429\)/) },
    ]);
  });
});

describe("waits of the remote engine in a run", () => {
  it("are events of the run, printed as one line each, and long ones are shown above the progress bars", async () => {
    const { runYaml } = await import("../../run/helpers.js");
    const { logLine, notedOnBars } = await import("../../../src/cli/progress.js");
    service.on("POST /v2/crawl", (_c, res) => json(res, 200, { success: true, id: "job-r" }));
    service.on("GET /v2/crawl/job-r", (_c, res, n) =>
      n === 1 ? json(res, 429, LIMITED, { "retry-after": "30" }) : json(res, 200, { success: true, status: "completed", completed: 1, total: 1, data: [serviceDocument("https://r.example/1", "one")] }),
    );
    const { engine } = engineWithClock();
    const { result, events } = await runYaml(`version: 1\nname: waits\nsteps:\n  - id: site\n    crawl: { url: "https://r.example/", limit: 5 }\n`, { engine });
    expect(result.ok && result.status).toBe("succeeded");
    const waiting = events.filter((e) => e.type === "step-waiting");
    expect(waiting).toEqual([{ type: "step-waiting", stepId: "site", waitMs: 30_000, reason: expect.stringMatching(/rate limiting the status of crawl job job-r/) }]);
    expect(logLine(waiting[0]!)).toMatch(/^\[site\] waiting 30 s: the service is rate limiting/);
    expect(notedOnBars(waiting[0]!)).toBe(true);
    expect(notedOnBars({ type: "document-retried", stepId: "s", url: "u", attempt: 1, delayMs: 2500, reason: "rate limited" })).toBe(true);
    expect(notedOnBars({ type: "document-retried", stepId: "s", url: "u", attempt: 1, delayMs: 300, reason: "503" })).toBe(false);
  });
});
