import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../../src/app/index.js";
import { startServer } from "../../src/server/index.js";
import { HookServer } from "../helpers/hook.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { startServe, waitFor, type Serve } from "./helpers.js";

// Webhooks of crawl, batch scrape and extract jobs, received on a local server.
const SECRET = "webhook-secret-for-tests";
let serve: Serve;
let site: FixtureSite;
const hook = new HookServer();
let hookUrl: string;

const product = `<html><head><title>Kettle</title><script type="application/ld+json">${JSON.stringify({ "@type": "Product", name: "Kettle", offers: { "@type": "Offer", price: 24.5 } })}</script></head><body><h1>Kettle</h1></body></html>`;

beforeAll(async () => {
  site = new FixtureSite();
  site.page("/", htmlPage("Home", `<a href="/p/0">0</a> <a href="/p/1">1</a> <a href="/p/2">2</a>`));
  site.page("/robots.txt", "");
  for (let i = 0; i < 3; i++) site.page(`/p/${i}`, htmlPage(`Page ${i}`, `<p>Text ${i}</p>`));
  site.page("/kettle", product);
  await site.start();
  hookUrl = await hook.start();
  serve = await startServe({ alpha: {} }, { env: { SCRAPELINE_WEBHOOK_SECRET: SECRET } });
});
afterAll(async () => {
  await serve?.stop();
  await site?.stop();
  await hook.stop();
});

interface Envelope {
  success: boolean;
  type: string;
  id: string;
  webhookId: string;
  data: any;
  metadata?: Record<string, unknown>;
  error?: string;
}

/** What the receiver got on one path, in the order it got it. */
function at(path: string): Array<{ headers: Record<string, unknown>; raw: string; body: Envelope }> {
  return hook.received.filter((r) => r.headers["x-test-path"] === path).map((r) => ({ headers: r.headers, raw: r.body, body: JSON.parse(r.body) as Envelope }));
}
const until = (path: string, type: string) => waitFor(async () => at(path), (got) => got.some((g) => g.body.type === type), 2400);

describe("job webhooks", () => {
  it("a crawl tells started, each page, then completed, signed, with the request's metadata and headers; a 500 is retried", async () => {
    hook.failStatus = 500;
    hook.failFirst = 1;
    const webhook = { url: `${hookUrl}/crawl`, headers: { "x-test-path": "crawl" }, metadata: { run: "nightly", n: 1 } };
    const start = await serve.call("POST", "/v2/crawl", { body: { url: site.url, limit: 10, sitemap: "skip", webhook } });
    expect(start.status).toBe(200);
    const got = await until("crawl", "crawl.completed");
    expect(hook.failFirst).toBe(0);
    const types = got.map((g) => g.body.type);
    expect(types[0]).toBe("crawl.started");
    expect(types[types.length - 1]).toBe("crawl.completed");
    expect(types.slice(1, -1).every((t) => t === "crawl.page")).toBe(true);
    const status = await serve.call("GET", `/v2/crawl/${start.body.id}`);
    expect(types.length - 2).toBe(status.body.completed);
    expect(status.body.completed).toBe(4);
    for (const g of got) {
      expect(g.body).toMatchObject({ success: true, id: start.body.id, metadata: { run: "nightly", n: 1 }, webhookId: expect.any(String) });
      const expected = `sha256=${createHmac("sha256", SECRET).update(g.raw).digest("hex")}`;
      expect(g.headers["x-firecrawl-signature"]).toBe(expected);
      expect(g.headers["content-type"]).toBe("application/json");
    }
    expect(new Set(got.map((g) => g.body.webhookId)).size).toBe(got.length);
    const pages = got.filter((g) => g.body.type === "crawl.page");
    expect(pages.map((p) => p.body.data[0].metadata.sourceURL).sort()).toEqual([`${site.url}/`, `${site.url}/p/0`, `${site.url}/p/1`, `${site.url}/p/2`].sort());
    expect(pages[0]!.body.data[0].markdown).toEqual(expect.any(String));
    expect(got[0]!.body.data).toEqual([]);
  });

  it("a batch scrape honours events: only completed is sent", async () => {
    const webhook = { url: `${hookUrl}/batch`, headers: { "x-test-path": "batch" }, events: ["completed"] };
    const start = await serve.call("POST", "/v2/batch/scrape", { body: { urls: [`${site.url}/p/0`, `${site.url}/p/1`], webhook } });
    expect(start.status).toBe(200);
    const got = await until("batch", "batch_scrape.completed");
    expect(got.map((g) => g.body.type)).toEqual(["batch_scrape.completed"]);
    expect(got[0]!.body.id).toBe(start.body.id);
  });

  it("a v1 crawl takes a webhook as a URL; an extract tells started and completed with its data", async () => {
    const v1 = await serve.call("POST", "/v1/crawl", { body: { url: `${site.url}/p/2`, limit: 1, ignoreSitemap: true, webhook: `${hookUrl}/v1crawl` } });
    expect(v1.status).toBe(200);
    const plain = await waitFor(async () => hook.received.filter((r) => !r.headers["x-test-path"]).map((r) => JSON.parse(r.body) as Envelope), (got) => got.some((g) => g.type === "crawl.completed"), 2400);
    expect(plain.map((g) => g.type)).toEqual(["crawl.started", "crawl.page", "crawl.completed"]);
    expect(plain[0]!.id).toBe(v1.body.id);

    const schema = { type: "object", properties: { name: { type: "string" }, price: { type: "number" } } };
    const webhook = { url: `${hookUrl}/extract`, headers: { "x-test-path": "extract" }, metadata: { who: "x" } };
    const start = await serve.call("POST", "/v1/extract", { body: { urls: [`${site.url}/kettle`], schema, webhook } });
    expect(start.status).toBe(200);
    const got = await until("extract", "extract.completed");
    expect(got.map((g) => g.body.type)).toEqual(["extract.started", "extract.completed"]);
    expect(got[1]!.body).toMatchObject({ success: true, id: start.body.id, data: { name: "Kettle", price: 24.5 }, metadata: { who: "x" } });
  });

  it("a v1 batch scrape's page events name format extract's output as v1 does", async () => {
    const schema = { type: "object", properties: { name: { type: "string" }, price: { type: "number" } } };
    const webhook = { url: `${hookUrl}/v1batch`, headers: { "x-test-path": "v1batch" }, events: ["page"] };
    const start = await serve.call("POST", "/v1/batch/scrape", { body: { urls: [`${site.url}/kettle`], formats: ["extract"], extract: { schema }, webhook } });
    expect(start.status).toBe(200);
    const got = await until("v1batch", "batch_scrape.page");
    expect(got[0]!.body.data[0].extract).toEqual({ name: "Kettle", price: 24.5 });
    expect(got[0]!.body.data[0]).not.toHaveProperty("json");
  });

  it("a failed crawl tells failed with its error", async () => {
    const webhook = { url: `${hookUrl}/failed`, headers: { "x-test-path": "failed" } };
    const start = await serve.call("POST", "/v2/crawl", { body: { url: "http://127.0.0.1:1/", limit: 1, sitemap: "skip", webhook } });
    expect(start.status).toBe(200);
    const got = await until("failed", "crawl.failed");
    expect(got.map((g) => g.body.type)).toEqual(["crawl.started", "crawl.failed"]);
    expect(got[1]!.body).toMatchObject({ success: false, error: expect.any(String) });
  });

  it("refuses a malformed webhook with a clear 400", async () => {
    const noUrl = await serve.call("POST", "/v2/crawl", { body: { url: site.url, webhook: { headers: {} } } });
    expect(noUrl.status).toBe(400);
    expect(noUrl.body.error).toMatch(/webhook.url must be an http\(s\) URL/);
    const badEvent = await serve.call("POST", "/v2/batch/scrape", { body: { urls: [site.url], webhook: { url: hookUrl, events: ["finished"] } } });
    expect(badEvent.status).toBe(400);
    expect(badEvent.body.error).toMatch(/webhook.events has "finished"/);
    const extraKey = await serve.call("POST", "/v2/extract", { body: { urls: [site.url], prompt: "x", webhook: { url: hookUrl, secret: "s" } } });
    expect(extraKey.status).toBe(400);
    expect(extraKey.body.error).toMatch(/webhook.secret/);
  });
});

/** How each message of a job's webhook went, once all `count` are settled (read from the database). */
function settled(db: string, jobId: string, count: number) {
  return waitFor(
    async () => {
      const conn = new Database(db, { readonly: true, fileMustExist: true });
      try {
        return conn.prepare("SELECT event, sent, attempts, error FROM serve_job_webhooks WHERE job_id = ? AND settled_at IS NOT NULL ORDER BY id").all(jobId) as Array<{ event: string; sent: number; attempts: number; error: string | null }>;
      } finally {
        conn.close();
      }
    },
    (rows) => rows.length >= count,
    2400,
  );
}

describe("job webhooks: network policy and outbox", () => {
  it("a loopback webhook is refused when serve does not allow the private network, and the refusal is recorded", async () => {
    const strict = await startServe({ alpha: {} }, { allowPrivateNetwork: false });
    try {
      const start = await strict.call("POST", "/v2/batch/scrape", { body: { urls: ["https://127.0.0.1:1/"], webhook: { url: `${hookUrl}/strict`, headers: { "x-test-path": "strict" } } } });
      expect(start.status).toBe(200);
      const rows = await settled(strict.db, start.body.id, 2);
      expect(rows.map((r) => r.event)).toEqual(["batch_scrape.started", "batch_scrape.failed"]);
      for (const row of rows) {
        expect(row).toMatchObject({ sent: 0, attempts: 1 });
        expect(row.error).toMatch(/refused by the network policy/);
      }
      expect(at("strict")).toEqual([]);
    } finally {
      await strict.stop();
    }
  });

  it("a message recorded and not delivered when its server stopped is sent at the next start, signed, with its webhookId", async () => {
    const dir = mkdtempSync(join(tmpdir(), "scrapeline-outbox-"));
    const db = join(dir, "serve.db");
    createKey(db, "alpha");
    const envelope = { success: true, type: "crawl.completed", id: "job-1", webhookId: "hook-1", data: [] };
    const channel = { type: "webhook", url: `${hookUrl}/left`, events: ["crawl.completed"], format: "service", id: "job-1", headers: { "x-test-path": "left" }, metadata: { from: "before" } };
    const message = { event: "crawl.completed", json: {}, subject: "s", text: "t", service: envelope };
    const conn = new Database(db);
    conn.prepare("INSERT INTO serve_job_webhooks (job_id, channel, event, message, queued_at) VALUES ('job-1', ?, 'crawl.completed', ?, ?)").run(JSON.stringify(channel), JSON.stringify(message), new Date().toISOString());
    conn.close();
    const server = await startServer({ db, port: 0, allowPrivateNetwork: true, env: { SCRAPELINE_WEBHOOK_SECRET: SECRET } });
    try {
      const got = await until("left", "crawl.completed");
      expect(got).toHaveLength(1);
      expect(got[0]!.body).toEqual({ ...envelope, metadata: { from: "before" } });
      expect(got[0]!.headers["x-firecrawl-signature"]).toBe(`sha256=${createHmac("sha256", SECRET).update(got[0]!.raw).digest("hex")}`);
      expect(await settled(db, "job-1", 1)).toMatchObject([{ event: "crawl.completed", sent: 1, attempts: 1 }]);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
