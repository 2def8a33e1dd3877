import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportRun, showRun } from "../../src/app/index.js";
import { SqliteStore } from "../../src/store/index.js";
import { FakeLlm } from "../helpers/llm-server.js";
import { FixtureSite } from "../helpers/site.js";
import { pipeline, readDocuments, runYaml } from "./helpers.js";

const site = new FixtureSite();
const llm = new FakeLlm();
const PRODUCTS = 30;

function productPage(i: number, price = 10 + i): string {
  const ld = JSON.stringify({ "@context": "https://schema.org", "@type": "Product", name: `Widget ${i}`, sku: `W-${i}`, offers: { "@type": "Offer", price: String(price), priceCurrency: "EUR" } });
  return `<!doctype html><html><head><title>Widget ${i}</title><script type="application/ld+json">${ld}</script></head><body><main><h1>Widget ${i}</h1><p>Price ${price} EUR</p></main></body></html>`;
}

let price = 99;
beforeAll(async () => {
  const urls = Array.from({ length: PRODUCTS }, (_, i) => `/products/${i + 1}`);
  site.route("/sitemap.xml", (_req, res) => {
    res.writeHead(200, { "content-type": "application/xml" }).end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${[...urls, "/about"].map((u) => `<url><loc>${site.url}${u}</loc></url>`).join("")}</urlset>`);
  });
  urls.forEach((u, i) => site.page(u, productPage(i + 1)));
  site.page("/about", "<html><body><p>About us</p></body></html>");
  site.route("/watched", (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(productPage(7, price)));
  await site.start();
  await llm.start();
});
afterAll(async () => {
  await site.stop();
  await llm.stop();
});

const schema = `{ type: object, properties: { products: { type: array, items: { type: object, properties: { name: { type: string }, price: { type: number } }, required: [name] } } } }`;
const step = (body: string) => `  - id: items\n    extract:\n${body.replace(/^/gm, "      ")}\n`;
const deterministic = { env: {} };

function stepResult(db: string, runId: number, stepId = "items") {
  const store = new SqliteStore(db);
  try {
    const raw = store.stepResult(runId, stepId);
    return raw === undefined ? undefined : JSON.parse(raw);
  } finally {
    store.close();
  }
}

describe("extract steps", () => {
  it("expands a glob through the sitemap, extracts every page without a model and merges in URL order with sources", async () => {
    const { result, db, events } = await runYaml(pipeline(step(`urls: ["${site.url}/products/*"]\nschema: ${schema}\nshowSources: true\nlimit: 3`)), deterministic);
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    expect(result.status).toBe("succeeded");
    const extract = stepResult(db, result.runId);
    // creditsUsed is what the step was charged, as serve answers it: three pages, no tokens.
    expect(extract).toMatchObject({ success: true, status: "completed", tokensUsed: 0, creditsUsed: 3 });
    expect(extract.data.products).toEqual([
      { name: "Widget 1", price: 11 },
      { name: "Widget 2", price: 12 },
      { name: "Widget 3", price: 13 },
    ]);
    expect(extract.sources).toEqual({ "products[0]": [`${site.url}/products/1`], "products[1]": [`${site.url}/products/2`], "products[2]": [`${site.url}/products/3`] });
    expect("invalidURLs" in extract).toBe(false);
    expect(result.credits).toBe(3); // three pages scraped, no tokens
    expect(events.some((e) => e.type === "step-warning" && /27 more URL\(s\) matched but were left out: the extract is limited to 3/.test(e.message))).toBe(true);
    const pages = readDocuments(db, result.runId, "items");
    expect(pages.map((p) => p.creditsUsed)).toEqual([1, 1, 1]);
    expect(pages.every((p) => p.document.rawHtml === undefined)).toBe(true);

    expect(showRun(db, result.runId).results["items"]).toMatchObject({ status: "completed", data: { products: expect.any(Array) } });

    const rows: string[] = [];
    await exportRun({ db, run: result.runId, step: "items", format: "csv", write: (t) => void rows.push(t) });
    expect(rows.join("").trim().split("\r\n")).toEqual(["products.name,products.price", "Widget 1,11", "Widget 2,12", "Widget 3,13"]);
  });

  it("lists invalid URLs and goes on when ignoreInvalidURLs is true (an empty list when there are none)", async () => {
    const { result, db } = await runYaml(pipeline(step(`urls: ["${site.url}/products/4", "not a url", "ftp://files.example/x", "http://intranet/page", "https://*.example.com/*"]\nschema: ${schema}\nignoreInvalidURLs: true`)), deterministic);
    if (!result.ok) throw new Error("invalid");
    expect(result.status).toBe("succeeded");
    const extract = stepResult(db, result.runId);
    // The same rule as serve and the pipeline check: a host without a top-level domain, a glob in the host.
    expect(extract.invalidURLs).toEqual(["not a url", "ftp://files.example/x", "http://intranet/page", "https://*.example.com/*"]);
    expect(extract.data).toEqual({ products: [{ name: "Widget 4", price: 14 }] });

    const clean = await runYaml(pipeline(step(`urls: ["${site.url}/products/5"]\nschema: ${schema}\nignoreInvalidURLs: true`)), deterministic);
    if (!clean.result.ok) throw new Error("invalid");
    expect(stepResult(clean.db, clean.result.runId).invalidURLs).toEqual([]);
  });

  it("rejects an invalid URL when ignoreInvalidURLs is false, before anything runs", async () => {
    const before = site.hits.get("/products/6") ?? 0;
    const { result } = await runYaml(pipeline(step(`urls: ["${site.url}/products/6", "not a url"]\nschema: ${schema}`)), deterministic);
    if (result.ok) throw new Error("expected the pipeline to be refused");
    expect(result.diagnostics).toEqual([expect.objectContaining({ code: "invalid-url", severity: "error", line: 7, message: expect.stringContaining('"not a url" is not a valid URL') })]);
    expect(site.hits.get("/products/6") ?? 0).toBe(before);
  });

  it("fails with the path when the merged data breaks the schema", async () => {
    const strict = `{ type: object, properties: { products: { type: array, items: { type: object, properties: { name: { type: string }, colour: { type: string } }, required: [colour] } } } }`;
    const { result, db, events } = await runYaml(pipeline(step(`urls: ["${site.url}/products/8"]\nschema: ${strict}`)), deterministic);
    if (!result.ok) throw new Error("invalid");
    expect(result.status).toBe("failed");
    expect(events.find((e) => e.type === "step-finished")).toMatchObject({ error: expect.stringMatching(/does not match the schema: products\.0: must have required property 'colour'/) });
    expect(stepResult(db, result.runId)).toMatchObject({ success: false, status: "failed" });
  });

  it("uses the configured model and bills ceil(tokens / 15) on top of the pages", async () => {
    llm.requests.length = 0;
    llm.fallback = (request) => {
      const user = request.body.messages.find((m) => m.role === "user")!.content;
      const n = /Widget (\d+)/.exec(user)![1];
      return { content: JSON.stringify({ products: [{ name: `Widget ${n}`, price: Number(n) + 10 }] }), tokens: 100 };
    };
    const env = { SCRAPELINE_LLM_BASE_URL: llm.url, SCRAPELINE_LLM_MODEL: "extract-model", SCRAPELINE_LLM_API_KEY: "sk-run-secret" };
    const { result, db } = await runYaml(pipeline(step(`urls: ["${site.url}/products/2", "${site.url}/products/1"]\nprompt: Every product\nschema: ${schema}`)), { env });
    if (!result.ok) throw new Error("invalid");
    expect(result.status).toBe("succeeded");
    const extract = stepResult(db, result.runId);
    expect(extract).toMatchObject({ tokensUsed: 200, creditsUsed: 2 + 14, data: { products: [{ name: "Widget 2", price: 12 }, { name: "Widget 1", price: 11 }] } });
    expect(result.credits).toBe(2 + 14);
    expect(llm.requests.every((r) => r.body.model === "extract-model")).toBe(true);
    const store = new SqliteStore(db);
    const raw = Buffer.concat((store.db.prepare("SELECT data FROM blobs").all() as Array<{ data: Buffer }>).map((r) => r.data)).toString("latin1");
    store.close();
    expect(raw).not.toContain("sk-run-secret");
    llm.fallback = undefined;
  });

  it("says that web search needs the remote engine", async () => {
    const { result, events } = await runYaml(pipeline(step(`urls: ["${site.url}/products/1"]\nschema: ${schema}\nenableWebSearch: true`)), deterministic);
    if (!result.ok) throw new Error("invalid");
    expect(result.status).toBe("failed");
    expect(events.find((e) => e.type === "step-finished")).toMatchObject({ error: expect.stringMatching(/enableWebSearch needs web search.*engine: firecrawl/) });
  });

  it("takes URLs from an earlier map step", async () => {
    const steps = `  - id: site\n    map: { url: "${site.url}/", limit: 100 }\n` + step(`urls: { from: site, include: ["/products/1?"], limit: 2 }\nschema: ${schema}`);
    const { result, db } = await runYaml(pipeline(steps), deterministic);
    if (!result.ok) throw new Error("invalid");
    expect(stepResult(db, result.runId).data.products.map((p: { name: string }) => p.name)).toEqual(["Widget 10", "Widget 11"]);
  });
});

describe("json format and change tracking's json mode", () => {
  it("fills the json format of a scrape step deterministically, billed 5 credits", async () => {
    const yaml = pipeline(`  - id: one\n    scrape: { url: "${site.url}/products/9", formats: [markdown, { type: json, schema: { type: object, properties: { name: { type: string }, sku: { type: string } } } }] }\n`);
    const { result, db } = await runYaml(yaml, deterministic);
    if (!result.ok) throw new Error("invalid");
    const [doc] = readDocuments(db, result.runId);
    expect(doc!.document.json).toEqual({ name: "Widget 9", sku: "W-9" });
    expect(doc!.creditsUsed).toBe(5);
  });

  it("reports only the fields that changed between runs", async () => {
    const yaml = pipeline(`  - id: watch\n    scrape: { url: "${site.url}/watched", formats: [markdown, { type: changeTracking, modes: [json], schema: { type: object, properties: { name: { type: string }, price: { type: number } } } }] }\n`);
    price = 99;
    const first = await runYaml(yaml, deterministic);
    if (!first.result.ok) throw new Error("invalid");
    price = 79;
    const second = await runYaml(yaml, { ...deterministic, db: first.db });
    if (!second.result.ok) throw new Error("invalid");
    const [doc] = readDocuments(first.db, second.result.runId);
    expect(doc!.document.changeTracking).toMatchObject({ changeStatus: "changed", json: { price: { previous: 99, current: 79 } } });
    expect(doc!.creditsUsed).toBe(5);
  });
});
