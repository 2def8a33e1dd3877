import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FakeService, json, serviceDocument } from "../../helpers/fake-service.js";
import { pipeline, readDocuments, runYaml } from "../../run/helpers.js";
import { SqliteStore } from "../../../src/store/index.js";
import { FirecrawlEngine } from "../../../src/engines/firecrawl/index.js";

const KEY = "fc-0123456789abcdef-secret";
const service = new FakeService();
beforeAll(async () => void (await service.start()));
afterAll(async () => service.stop());
beforeEach(() => void (service.calls.length = 0));

const remote = (steps: string, extra = "") => pipeline(steps, `engine: { kind: firecrawl, baseUrl: "${service.url}" }\n${extra}`);
const env = { FIRECRAWL_API_KEY: KEY };

function everything(db: string): string {
  const store = new SqliteStore(db);
  try {
    const rows = store.db.prepare("SELECT * FROM blobs").all() as Array<{ data: Buffer }>;
    const text = store.db.prepare("SELECT group_concat(coalesce(error, ''), ' ') FROM runs").pluck().get() as string;
    return `${text} ${rows.map((r) => r.data.toString("latin1")).join(" ")}`;
  } finally {
    store.close();
  }
}

describe("the remote engine", () => {
  it("scrapes with the bearer key and stores the service's document and credits", async () => {
    service.on("POST /v2/scrape", (call, res) => json(res, 200, { success: true, data: serviceDocument((call.body as { url: string }).url, "# Remote page", 1) }));
    const { result, db } = await runYaml(remote(`  - id: a\n    scrape: { url: "https://example.com/a", formats: [markdown] }\n`), { env });
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    expect(result.status).toBe("succeeded");
    const call = service.calls.find((c) => c.path === "/v2/scrape")!;
    expect(call.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(call.body).toMatchObject({ url: "https://example.com/a", formats: [{ type: "markdown" }], onlyMainContent: true });
    const [doc] = readDocuments(db, result.runId);
    expect(doc!.document.markdown).toBe("# Remote page");
    expect(doc!.creditsUsed).toBe(1);
  });

  it("computes the credits of a document the service gave no figure for, and says they are estimated", async () => {
    service.on("POST /v2/scrape", (call, res) => {
      const doc = serviceDocument((call.body as { url: string }).url, "no figure") as { metadata: Record<string, unknown> };
      delete doc.metadata["creditsUsed"];
      json(res, 200, { success: true, data: doc });
    });
    const { result, db, events } = await runYaml(remote(`  - id: a\n    scrape: { url: "https://example.com/j", formats: [markdown, { type: json, prompt: "x" }] }\n`), { env });
    if (!result.ok) throw new Error("invalid");
    const [doc] = readDocuments(db, result.runId);
    expect(doc!.creditsUsed).toBe(5);
    expect(doc!.document.metadata).toMatchObject({ creditsUsed: 5, creditsEstimated: true });
    expect(events.find((e) => e.type === "document-stored")).toMatchObject({ credits: 5, estimated: true });
  });

  it("says the key was rejected on a 401, with the key nowhere in the output or the database", async () => {
    service.on("POST /v2/scrape", (_call, res) => json(res, 401, { success: false, error: "Unauthorized: Invalid token" }));
    const { result, db, events } = await runYaml(remote(`  - id: a\n    scrape: { url: "https://example.com/401" }\n`), { env });
    if (!result.ok) throw new Error("invalid");
    expect(result.status).toBe("failed");
    const failure = events.find((e) => e.type === "document-failed");
    expect(failure).toMatchObject({ reason: expect.stringMatching(/rejected the API key \(HTTP 401\)/) });
    const seen = JSON.stringify(events) + everything(db);
    expect(seen).not.toContain(KEY);
    expect(seen).not.toContain(Buffer.from(KEY).toString("base64"));
    expect(service.calls.filter((c) => c.path === "/v2/scrape")).toHaveLength(1); // not retried
  });

  it("retries an HTML page and a truncated body in place of JSON, and fails clearly when they persist", async () => {
    let cut = 0;
    service.on("POST /v2/scrape", (call, res) => {
      const url = (call.body as { url: string }).url;
      if (url.endsWith("/html")) return res.writeHead(502, { "content-type": "text/html" }).end("<html><body>Bad gateway</body></html>");
      if (++cut === 1) return res.writeHead(200, { "content-type": "application/json" }).end('{"success":true,"data":{"markdown":"cut');
      return json(res, 200, { success: true, data: serviceDocument(url, "whole") });
    });
    const steps = `  - id: a\n    scrape: { url: "https://example.com/cut" }\n    continueOnError: true\n  - id: b\n    scrape: { url: "https://example.com/html" }\n    continueOnError: true\n`;
    const { result, events } = await runYaml(remote(steps), { env });
    if (!result.ok) throw new Error("invalid");
    expect(events.find((e) => e.type === "document-retried" && e.url.endsWith("/cut"))).toMatchObject({ reason: expect.stringMatching(/not JSON \(JSON cut short\)/) });
    expect(events.find((e) => e.type === "document-stored")).toMatchObject({ url: "https://example.com/cut" });
    expect(events.find((e) => e.type === "document-failed")).toMatchObject({ url: "https://example.com/html", reason: expect.stringMatching(/HTTP 502.*an HTML page/) });
  });

  it("treats a DNS failure answered as 200 with success false as a failed page, not retried", async () => {
    service.on("POST /v2/scrape", (_c, res) => json(res, 200, { success: false, code: "SCRAPE_DNS_RESOLUTION_ERROR", error: "DNS resolution failed for nowhere.invalid" }));
    const { result, events } = await runYaml(remote(`  - id: a\n    scrape: { url: "https://nowhere.invalid/" }\n`), { env });
    if (!result.ok) throw new Error("invalid");
    expect(events.find((e) => e.type === "document-failed")).toMatchObject({ reason: expect.stringMatching(/could not scrape.*DNS resolution failed.*does not resolve/) });
    expect(service.calls.filter((c) => c.path === "/v2/scrape")).toHaveLength(1);
  });

  it("waits out 429s (Retry-After, then the message's 'retry after Ns') without spending attempts", async () => {
    service.on("POST /v2/scrape", (call, res, n) => {
      if (n === 1) return json(res, 429, { success: false, error: "Rate limit exceeded." }, { "retry-after": "0" });
      if (n <= 4) return json(res, 429, { success: false, error: "Rate limit exceeded. Consumed (req/min): 11, Remaining (req/min): 0. please retry after 0s, resets at now" });
      return json(res, 200, { success: true, data: serviceDocument((call.body as { url: string }).url, "finally") });
    });
    const yaml = remote(`  - id: a\n    scrape: { url: "https://example.com/busy" }\n`).replace("attempts: 3", "attempts: 1");
    const { result, events } = await runYaml(yaml, { env });
    if (!result.ok) throw new Error("invalid");
    expect(result.status).toBe("succeeded");
    expect(events.filter((e) => e.type === "document-retried").map((e) => e.type === "document-retried" && e.reason)).toEqual(Array(4).fill(expect.stringMatching(/^rate limited/)));
  });

  it("reads 1,000 crawled pages over 10 status pages, in order and exactly once, following next until the status is terminal", async () => {
    let polls = 0;
    service.on("POST /v2/crawl", (_c, res) => json(res, 200, { success: true, id: "job-1000", url: `${service.url}/v2/crawl/job-1000` }));
    service.on("GET /v2/crawl/job-1000", (call, res) => {
      polls++;
      const skip = Number(new URL(call.path, "http://x").searchParams.get("skip") ?? 0);
      const ready = Math.min(1000, polls * 150); // the job finds pages while it is polled
      const data = Array.from({ length: Math.max(0, Math.min(100, ready - skip)) }, (_, i) => serviceDocument(`https://docs.example/p/${skip + i}`, `page ${skip + i}`));
      const done = ready === 1000;
      const next = skip + data.length < ready ? `${service.url}/v2/crawl/job-1000?skip=${skip + data.length}` : undefined;
      json(res, 200, { success: true, status: done ? "completed" : "scraping", completed: ready, total: done ? 1000 : ready + 50, creditsUsed: ready, expiresAt: new Date().toISOString(), ...(next ? { next } : {}), data });
    });
    const { result, db } = await runYaml(remote(`  - id: docs\n    crawl: { url: "https://docs.example/", limit: 1000 }\n`), { env });
    if (!result.ok) throw new Error("invalid");
    expect(result.status).toBe("succeeded");
    const docs = readDocuments(db, result.runId, "docs");
    expect(docs).toHaveLength(1000);
    expect(new Set(docs.map((d) => d.url)).size).toBe(1000);
    expect(result.credits).toBe(1000);
    const start = service.calls.find((c) => c.path === "/v2/crawl")!;
    expect(start.headers["x-idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("scrapes several URLs as one batch job, options at the top level, and cancels it at /v2/batch/scrape/{id} when stopped", async () => {
    service.on("POST /v2/batch/scrape", (_c, res) => json(res, 200, { success: true, id: "batch-1", url: `${service.url}/v2/batch/scrape/batch-1` }));
    service.on("GET /v2/batch/scrape/batch-1", (_c, res) => json(res, 200, { success: true, status: "completed", completed: 3, total: 3, creditsUsed: 3, data: [1, 2, 3].map((i) => serviceDocument(`https://b.example/${i}`, `b${i}`)) }));
    const { result, db } = await runYaml(remote(`  - id: b\n    scrape: { urls: ["https://b.example/1", "https://b.example/2", "https://b.example/3"], formats: [markdown, links] }\n`), { env });
    if (!result.ok) throw new Error("invalid");
    expect(result.status).toBe("succeeded");
    const start = service.calls.find((c) => c.path === "/v2/batch/scrape")!;
    expect(start.body).toMatchObject({ urls: ["https://b.example/1", "https://b.example/2", "https://b.example/3"], formats: [{ type: "markdown" }, { type: "links" }] });
    expect(start.body).not.toHaveProperty("scrapeOptions");
    expect(start.headers["x-idempotency-key"]).toBeDefined();
    expect(readDocuments(db, result.runId, "b").map((d) => d.url)).toEqual(["https://b.example/1", "https://b.example/2", "https://b.example/3"]);
    expect(service.calls.filter((c) => c.path === "/v2/scrape")).toHaveLength(0);

    service.on("POST /v2/batch/scrape", (_c, res) => json(res, 200, { success: true, id: "batch-slow" }));
    service.on("GET /v2/batch/scrape/batch-slow", (_c, res) => json(res, 200, { success: true, status: "scraping", completed: 0, total: 2, creditsUsed: 0, data: [] }));
    service.on("DELETE /v2/batch/scrape/batch-slow", (_c, res) => json(res, 200, { status: "cancelled" }));
    const slow = await runYaml(remote(`  - id: b\n    scrape: { urls: ["https://b.example/8", "https://b.example/9"] }\n    timeoutMs: 1200\n`), { env });
    if (!slow.result.ok) throw new Error("invalid");
    expect(service.calls.some((c) => c.method === "DELETE" && c.path === "/v2/batch/scrape/batch-slow")).toBe(true);
    expect(slow.events.find((e) => e.type === "step-finished")).toMatchObject({ status: "cancelled" });
  });

  it("refuses a next URL on another host, so the key never leaves for it", async () => {
    service.on("POST /v2/crawl", (_c, res) => json(res, 200, { success: true, id: "job-evil" }));
    service.on("GET /v2/crawl/job-evil", (_c, res) => json(res, 200, { success: true, status: "scraping", completed: 1, total: 2, creditsUsed: 1, data: [serviceDocument("https://a.example/1", "one")], next: "http://127.0.0.2:9/v2/crawl/job-evil?skip=1" }));
    const { result, events } = await runYaml(remote(`  - id: c\n    crawl: { url: "https://a.example/", limit: 5 }\n`), { env });
    if (!result.ok) throw new Error("invalid");
    expect(result.status).toBe("failed");
    expect(events.find((e) => e.type === "step-finished")).toMatchObject({ error: expect.stringMatching(/pointed at http:\/\/127\.0\.0\.2:9.*refused/) });
  });

  it("cancels a crawl that stays scraping past the step's timeout with DELETE /v1/crawl/{id}, and marks the step cancelled", async () => {
    service.on("POST /v2/crawl", (_c, res) => json(res, 200, { success: true, id: "job-forever" }));
    service.on("GET /v2/crawl/job-forever", (_c, res) => json(res, 200, { success: true, status: "scraping", completed: 0, total: 10, creditsUsed: 0, data: [] }));
    service.on("DELETE /v1/crawl/job-forever", (_c, res) => json(res, 200, { status: "cancelled" }));
    const { result, events } = await runYaml(remote(`  - id: c\n    crawl: { url: "https://slow.example/", limit: 10 }\n    timeoutMs: 1500\n`), { env });
    if (!result.ok) throw new Error("invalid");
    expect(service.calls.some((c) => c.method === "DELETE" && c.path === "/v1/crawl/job-forever")).toBe(true);
    expect(events.find((e) => e.type === "step-finished")).toMatchObject({ status: "cancelled", error: expect.stringMatching(/timed out.*job was cancelled/) });
  });

  it("fails a step whose job the service reports cancelled, keeping the pages it had", async () => {
    service.on("POST /v2/crawl", (_c, res) => json(res, 200, { success: true, id: "job-gone" }));
    service.on("GET /v2/crawl/job-gone", (_c, res) => json(res, 200, { success: true, status: "cancelled", completed: 1, total: 5, creditsUsed: 1, data: [serviceDocument("https://c.example/1", "one")] }));
    const { result, db, events } = await runYaml(remote(`  - id: c\n    crawl: { url: "https://c.example/", limit: 5 }\n`), { env });
    if (!result.ok) throw new Error("invalid");
    expect(result.status).toBe("failed");
    expect(events.find((e) => e.type === "step-finished")).toMatchObject({ status: "failed", error: expect.stringMatching(/job job-gone was cancelled before it finished \(1 page\(s\) stored/) });
    expect(readDocuments(db, result.runId, "c")).toHaveLength(1);
  });

  it("does not start a crawl whose limit could pass the budget", async () => {
    const { result } = await runYaml(remote(`  - id: c\n    crawl: { url: "https://big.example/", limit: 10000 }\n`, "budget: { maxCredits: 100 }\n"), { env });
    if (!result.ok) throw new Error("invalid");
    expect(result.status).toBe("budget-exhausted");
    expect(service.calls.filter((c) => c.path === "/v2/crawl")).toHaveLength(0);
  });

  it("runs an extract on the service and keeps its result and credits", async () => {
    service.on("POST /v2/extract", (_c, res) => json(res, 200, { success: true, id: "ex-1", invalidURLs: ["bad"] }));
    service.on("GET /v2/extract/ex-1", (_c, res, n) => json(res, 200, n < 2 ? { success: true, status: "processing", data: [] } : { success: true, status: "completed", data: { title: "Remote" }, tokensUsed: 300, expiresAt: new Date().toISOString() }));
    const { result, db } = await runYaml(remote(`  - id: x\n    extract: { urls: ["https://example.com/*", "bad"], prompt: "the title", ignoreInvalidURLs: true }\n`), { env });
    if (!result.ok) throw new Error("invalid");
    expect(result.status).toBe("succeeded");
    const sent = service.calls.find((c) => c.path === "/v2/extract")!;
    expect(sent.body).toMatchObject({ urls: ["https://example.com/*", "bad"], prompt: "the title", ignoreInvalidURLs: true, enableWebSearch: false });
    expect(sent.body).not.toHaveProperty("limit");
    const store = new SqliteStore(db);
    const stored = JSON.parse(store.stepResult(result.runId, "x")!);
    store.close();
    expect(stored).toEqual({ success: true, status: "completed", data: { title: "Remote" }, invalidURLs: ["bad"], tokensUsed: 300, creditsUsed: 20 });
    expect(result.credits).toBe(20);
  });

  it("refuses to send the key over plain http to a host other than this machine", async () => {
    await expect(runYaml(pipeline(`  - id: a\n    scrape: { url: "https://example.com/" }\n`, `engine: { kind: firecrawl, baseUrl: "http://api.example.com" }\n`), { env })).rejects.toThrow(/refusing to send the API key to http:\/\/api\.example\.com over plain http/);
  });

  it("needs the key before anything runs", async () => {
    await expect(runYaml(remote(`  - id: a\n    scrape: { url: "https://example.com/" }\n`), { env: {} })).rejects.toThrow(/FIRECRAWL_API_KEY is not set/);
    expect(service.calls).toHaveLength(0);
  });

  it("reads token usage from v2, and from v1 when v2 is missing", async () => {
    const engine = new FirecrawlEngine({ baseUrl: service.url, apiKey: KEY });
    service.on("GET /v2/team/token-usage", (_c, res) => json(res, 200, { success: true, data: { remainingTokens: 1500, planTokens: 3000, billingPeriodStart: "2026-11-01T00:00:00Z", billingPeriodEnd: "2026-12-01T00:00:00Z" } }));
    expect(await engine.usage()).toEqual({ remainingTokens: 1500, planTokens: 3000, billingPeriodStart: "2026-11-01T00:00:00Z", billingPeriodEnd: "2026-12-01T00:00:00Z", source: "v2" });
    service.on("GET /v2/team/token-usage", (_c, res) => json(res, 404, { success: false, error: "not found" }));
    service.on("GET /v1/team/token-usage", (_c, res) => json(res, 200, { success: true, data: { remaining_tokens: 45, plan_tokens: 90, billing_period_start: "a", billing_period_end: "b" } }));
    expect(await engine.usage()).toEqual({ remainingTokens: 45, planTokens: 90, billingPeriodStart: "a", billingPeriodEnd: "b", source: "v1" });
  });
});
