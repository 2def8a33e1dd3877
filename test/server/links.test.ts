import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FixtureSite } from "../helpers/site.js";
import { chainSite, startServe, waitFor, type Serve } from "./helpers.js";

/** Links in answers come from the server's configured address, never from what a request claims. */

let site: FixtureSite;
let serve: Serve;
let proxied: Serve;

beforeAll(async () => {
  site = await chainSite(3);
  serve = await startServe({ a: {} });
  proxied = await startServe({ a: {} }, { publicUrl: "https://scrape.example.com/api/" });
});
afterAll(async () => {
  await serve?.stop();
  await proxied?.stop();
  await site?.stop();
});

/** A raw request, so the Host header and the request target are whatever the test says. */
function raw(target: Serve, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; body: any }> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: target.server.port, method, path, headers: { authorization: `Bearer ${target.keys.a}`, ...(text ? { "content-type": "application/json" } : {}), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) }));
    });
    req.on("error", reject);
    req.end(text);
  });
}

async function finishedCrawl(target: Serve): Promise<string> {
  const start = await target.call("POST", "/v2/crawl", { body: { url: site.url, limit: 10, sitemap: "skip" } });
  expect(start.status).toBe(200);
  await waitFor(() => target.call("GET", `/v2/crawl/${start.body.id}`), (r) => r.body.status !== "scraping");
  return start.body.id as string;
}

describe("links in answers", () => {
  it("a Host header does not reach the crawl url or the next link", async () => {
    const start = await raw(serve, "POST", "/v2/crawl", { host: "evil.example:1" }, { url: site.url, limit: 10, sitemap: "skip" });
    expect(start.status).toBe(200);
    expect(start.body.url).toBe(`${serve.server.url}/v2/crawl/${start.body.id}`);
    await waitFor(() => serve.call("GET", `/v2/crawl/${start.body.id}`), (r) => r.body.status !== "scraping");
    const page = await raw(serve, "GET", `/v2/crawl/${start.body.id}?limit=2`, { host: "evil.example:1" });
    expect(page.body.next).toBe(`${serve.server.url}/v2/crawl/${start.body.id}?limit=2&skip=2`);
  });

  it("an absolute-form request target does not reach the next link either", async () => {
    const id = await finishedCrawl(serve);
    const page = await raw(serve, "GET", `http://evil.example:1/v2/crawl/${id}?limit=2`, {});
    expect(page.status).toBe(200);
    expect(page.body.next).toBe(`${serve.server.url}/v2/crawl/${id}?limit=2&skip=2`);
  });

  it("links use --public-url when it is set", async () => {
    const start = await raw(proxied, "POST", "/v2/batch/scrape", { host: "evil.example:1" }, { urls: [`${site.url}/p/0`, `${site.url}/p/1`] });
    expect(start.body.url).toBe(`https://scrape.example.com/api/v2/batch/scrape/${start.body.id}`);
    const id = await finishedCrawl(proxied);
    const page = await raw(proxied, "GET", `/v2/crawl/${id}?limit=1`, { host: "evil.example:1" });
    expect(page.body.next).toBe(`https://scrape.example.com/api/v2/crawl/${id}?limit=1&skip=1`);
  });
});
