import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasOpenssl, selfSignedCert } from "../helpers/tls.js";
import { FixtureSite } from "../helpers/site.js";
import { startServe, waitFor, type Serve } from "./helpers.js";

/** Each version of the interface answers with its own defaults and its own fields. */


let serve: Serve;
const site = new FixtureSite();
/** The price each product page shows now; a test changes it between requests. */
const prices: Record<string, number> = {};

const product = (name: string, price: number) =>
  `<html><head><title>${name}</title><script type="application/ld+json">${JSON.stringify({ "@type": "Product", name, offers: { "@type": "Offer", price } })}</script></head><body><h1>${name}</h1><p>Costs ${price}.</p></body></html>`;
const schema = { type: "object", properties: { name: { type: "string" }, price: { type: "number" } } };

beforeAll(async () => {
  for (const name of ["v1-cache", "v2-cache"]) {
    prices[name] = 10;
    site.route(`/${name}`, (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(product(name, prices[name]!)));
  }
  await site.start();
  serve = await startServe({ a: {} }, { env: {} });
});
afterAll(async () => {
  await serve?.stop();
  await site.stop();
});

async function extract(version: "v1" | "v2", body: Record<string, unknown>): Promise<any> {
  const start = await serve.call("POST", `/${version}/extract`, { body });
  expect(start.status, JSON.stringify(start.body)).toBe(200);
  return (await waitFor(() => serve.call("GET", `/${version}/extract/${start.body.id}`), (r) => r.body?.status !== "processing")).body;
}

describe("defaults by version", () => {
  it("v1 extract: maxAge defaults to 0, so a changed page is read again", async () => {
    const url = `${site.url}/v1-cache`;
    expect((await extract("v1", { urls: [url], schema })).data).toMatchObject({ price: 10 });
    prices["v1-cache"] = 20;
    expect((await extract("v1", { urls: [url], schema })).data).toMatchObject({ price: 20 });
  });

  it("v2 extract: maxAge defaults to 2 days, so the cached page answers", async () => {
    const url = `${site.url}/v2-cache`;
    expect((await extract("v2", { urls: [url], schema })).data).toMatchObject({ price: 10 });
    prices["v2-cache"] = 20;
    expect((await extract("v2", { urls: [url], schema })).data).toMatchObject({ price: 10 });
    expect((await extract("v2", { urls: [url], schema, scrapeOptions: { maxAge: 0 } })).data).toMatchObject({ price: 20 });
  });

  describe.skipIf(!hasOpenssl())("TLS verification", () => {
    let https: import("node:https").Server;
    let url = "";
    beforeAll(async () => {
      https = createServer(selfSignedCert("untrusted.test"), (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(product("Self-signed", 5)));
      await new Promise<void>((resolve) => https.listen(0, "127.0.0.1", resolve));
      url = `https://127.0.0.1:${(https.address() as AddressInfo).port}/`;
    });
    afterAll(async () => {
      https.closeAllConnections();
      await new Promise<void>((resolve) => https.close(() => resolve()));
    });

    it("v1 extract verifies certificates by default: a self-signed page fails", async () => {
      const done = await extract("v1", { urls: [url], schema });
      expect(done).toMatchObject({ success: false, status: "failed" });
      expect(done.error).toMatch(/certificate|TLS|skipTlsVerification/i);
    });

    it("v2 extract skips verification by default: the self-signed page is read", async () => {
      const done = await extract("v2", { urls: [url], schema, scrapeOptions: { maxAge: 0 } });
      expect(done).toMatchObject({ success: true, status: "completed", data: { name: "Self-signed" } });
    });
  });
});

describe("fields by version", () => {
  const url = () => `${site.url}/v2-cache`;
  for (const [name, extra, replacement] of [
    ["parsePDF", { parsePDF: false }, "parsers"],
    ["jsonOptions", { formats: ["json"], jsonOptions: { prompt: "the name" } }, "{type: json"],
    ["changeTrackingOptions", { formats: ["markdown", "changeTracking"], changeTrackingOptions: { modes: ["git-diff"] } }, "{type: changeTracking"],
    ["format extract", { formats: ["extract"] }, "{type: json"],
    ["format screenshot@fullPage", { formats: ["screenshot@fullPage"] }, "{type: screenshot, fullPage: true}"],
  ] as const) {
    it(`v2 scrape, batch scrape, crawl and extract refuse ${name}, naming ${replacement}`, async () => {
      for (const [path, body] of [
        ["/v2/scrape", { url: url(), ...extra }],
        ["/v2/batch/scrape", { urls: [url()], ...extra }],
        ["/v2/crawl", { url: url(), scrapeOptions: extra }],
        ["/v2/extract", { urls: [url()], schema, scrapeOptions: extra }],
      ] as const) {
        const r = await serve.call("POST", path, { body });
        expect(r.status, path).toBe(400);
        expect(r.body.error, path).toContain("removed in v2");
        expect(r.body.error, path).toContain(replacement);
      }
    });
  }

  for (const [key, value, replacement] of [
    ["maxDepth", 2, "maxDiscoveryDepth"],
    ["allowBackwardCrawling", true, "crawlEntireDomain"],
    ["ignoreSitemap", true, "sitemap"],
  ] as const) {
    it(`v2 crawl refuses ${key}, naming ${replacement}`, async () => {
      const r = await serve.call("POST", "/v2/crawl", { body: { url: url(), [key]: value } });
      expect(r.status).toBe(400);
      expect(r.body.error).toContain(key);
      expect(r.body.error).toContain(replacement);
    });
  }

  for (const format of ["images", "summary"]) {
    it(`v1 extract refuses the v2 format ${format}`, async () => {
      const r = await serve.call("POST", "/v1/extract", { body: { urls: [url()], schema, scrapeOptions: { formats: ["markdown", format] } } });
      expect(r.status).toBe(400);
      expect(r.body.error).toContain(`format ${format} is not a v1 format`);
    });
  }

  it("v1 extract refuses formats written as objects and the v2 field parsers", async () => {
    const summary = await serve.call("POST", "/v1/extract", { body: { urls: [url()], schema, scrapeOptions: { formats: [{ type: "summary" }] } } });
    expect(summary.status).toBe(400);
    expect(summary.body.error).toContain("v1 formats are names, not objects (found {type: summary})");
    const markdown = await serve.call("POST", "/v1/extract", { body: { urls: [url()], schema, scrapeOptions: { formats: [{ type: "markdown" }] } } });
    expect(markdown.status).toBe(400);
    const parsers = await serve.call("POST", "/v1/extract", { body: { urls: [url()], schema, scrapeOptions: { parsers: [] } } });
    expect(parsers.status).toBe(400);
    expect(parsers.body.error).toContain("parsers is a v2 field; v1 has parsePDF");
    // The same options are v2's own.
    const v2 = await serve.call("POST", "/v2/extract", { body: { urls: [url()], schema, scrapeOptions: { formats: [{ type: "markdown" }], parsers: [] } } });
    expect(v2.status).toBe(200);
  });

  it("v1 extract maps its v1 fields and says so in warning", async () => {
    const r = await serve.call("POST", "/v1/extract", { body: { urls: [url()], schema, scrapeOptions: { parsePDF: false, formats: ["markdown", "extract"] } } });
    expect(r.status).toBe(200);
    expect(r.body.warning).toContain("parsePDF is a v1 option (use parsers: [])");
    expect(r.body.warning).toContain("format extract is the v1 name of json");
    await waitFor(() => serve.call("GET", `/v1/extract/${r.body.id}`), (x) => x.body?.status !== "processing");
    const plain = await serve.call("POST", "/v1/extract", { body: { urls: [url()], schema } });
    expect(plain.body).not.toHaveProperty("warning");
    await waitFor(() => serve.call("GET", `/v1/extract/${plain.body.id}`), (x) => x.body?.status !== "processing");
  });
});

describe("pipeline-style warnings", () => {
  it("a crawl whose prompt changes nothing, and a batch whose storeInCache is forced off, say so in warning", async () => {
    const crawl = await serve.call("POST", "/v2/crawl", { body: { url: `${site.url}/v2-cache`, prompt: "xyzzy", limit: 1 } });
    expect(crawl.status).toBe(200);
    expect(crawl.body.warning).toContain("no crawl option was recognised in this prompt");
    const batch = await serve.call("POST", "/v2/batch/scrape", { body: { urls: [`${site.url}/v2-cache`], headers: { "x-a": "1" }, storeInCache: true } });
    expect(batch.status).toBe(200);
    expect(batch.body.warning).toContain("storeInCache is forced to false when headers are used");
    const plain = await serve.call("POST", "/v2/batch/scrape", { body: { urls: [`${site.url}/v2-cache`] } });
    expect(plain.body).not.toHaveProperty("warning");
    for (const [path, id] of [["/v2/crawl", crawl.body.id], ["/v2/batch/scrape", batch.body.id], ["/v2/batch/scrape", plain.body.id]]) {
      await waitFor(() => serve.call("GET", `${path}/${id}`), (r) => r.body?.status !== "scraping");
    }
  });
});
