import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import type { Document } from "../../src/core/index.js";
import { SqliteStore } from "../../src/store/index.js";
import { pipeline, readDocuments, runYaml } from "../run/helpers.js";
import { startServe, type Serve } from "../server/helpers.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { FakeSearxng, type FakeResult } from "../helpers/searxng.js";
import { FakeLlm } from "../helpers/llm-server.js";
import { makeDocx, makeWorkbook } from "../engines/parse/fixtures.js";
import { makePdf } from "../engines/pdf/make-pdf.js";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// One set of pipelines, run on the local engine and on the remote engine against scrapeline
// serve (a real server on 127.0.0.1 with a fresh database and key): the stored results must match.
const site = new FixtureSite();
let serve: Serve;
let searx: FakeSearxng;
const llm = new FakeLlm();

beforeAll(async () => {
  const product = (i: number) => `<script type="application/ld+json">${JSON.stringify({ "@type": "Product", name: `Item ${i}`, offers: { "@type": "Offer", price: 10 * i } })}</script>`;
  site.page("/", htmlPage("Home", `<p>Welcome to the shop.</p>${[1, 2, 3, 4, 5].map((i) => `<a href="/items/${i}">Item ${i}</a>`).join(" ")}<a href="/about">About</a>`));
  for (let i = 1; i <= 5; i++) site.page(`/items/${i}`, htmlPage(`Item ${i}`, `${product(i)}<p>Item ${i} costs ${10 * i}.</p><table><tr><th>Size</th><th>Colour</th></tr><tr><td>${i}</td><td>blue</td></tr></table><a href="/">Home</a>`));
  site.page("/about", htmlPage("About", "<p>About the shop.</p><ul><li>one</li><li>two</li></ul>"));
  site.page("/robots.txt", "");
  await site.start();
  const items: FakeResult[] = [1, 2, 3, 4, 5].map((i) => ({ url: `${site.url}/items/${i}`, title: `Item ${i}`, content: `Item ${i} costs ${10 * i}.` }));
  searx = await new FakeSearxng({ results: { general: items, news: [{ url: `${site.url}/about`, title: "About the shop", content: "news", publishedDate: "2026-11-24T09:00:00" }] }, perPage: 2 }).start();
  serve = await startServe({ contract: { planTokens: 1_000_000 } }, { env: { SCRAPELINE_SEARXNG_URL: searx.url } });
});
afterAll(async () => {
  await serve?.stop();
  await site?.stop();
  await searx?.stop();
});

/** Fields that say when, not what: they differ between any two runs. */
function comparable(document: Document): unknown {
  const { metadata, changeTracking, ...rest } = document;
  const { cachedAt: _c, scrapeId: _s, ...meta } = metadata;
  const tracking = changeTracking ? { ...changeTracking, previousScrapeAt: changeTracking.previousScrapeAt === null ? null : "(a time)" } : undefined;
  return { ...rest, metadata: meta, ...(tracking ? { changeTracking: tracking } : {}) };
}

/** The service keeps a page cache across requests; each side here starts from nothing, so pages are fetched live. */
const LIVE = "defaults: { scrapeOptions: { maxAge: 0 } }\n";

async function both(steps: string, extra = LIVE) {
  const local = await runYaml(pipeline(steps, extra), { env: {} });
  const remote = await runYaml(pipeline(steps, `engine: { kind: firecrawl, baseUrl: "${serve.server.url}" }\n${extra}`), { env: { FIRECRAWL_API_KEY: serve.keys.contract! } });
  if (!local.result.ok || !remote.result.ok) throw new Error("invalid pipeline");
  return { local: { ...local, result: local.result }, remote: { ...remote, result: remote.result } };
}

function byUrl(db: string, runId: number, stepId: string): Map<string, unknown> {
  return new Map(readDocuments(db, runId, stepId).map((d) => [d.url, comparable(d.document)]));
}

describe("contract: local engine and remote engine store the same results", () => {
  it("scrape, one URL and several (a batch job on the service)", async () => {
    const steps = `  - id: one\n    scrape: { url: "${site.url}/items/1", formats: [markdown, html, links, images] }\n  - id: many\n    scrape: { urls: ["${site.url}/items/2", "${site.url}/items/3", "${site.url}/about"], formats: [markdown, links] }\n`;
    const { local, remote } = await both(steps);
    expect(local.result.status).toBe("succeeded");
    expect(remote.result.status).toBe("succeeded");
    for (const step of ["one", "many"]) expect(byUrl(remote.db, remote.result.runId, step)).toEqual(byUrl(local.db, local.result.runId, step));
    expect(remote.result.credits).toBe(local.result.credits);
  });

  it("crawl", async () => {
    const steps = `  - id: site\n    crawl: { url: "${site.url}/", limit: 20, sitemap: skip, scrapeOptions: { formats: [markdown] } }\n`;
    const { local, remote } = await both(steps);
    const l = byUrl(local.db, local.result.runId, "site");
    expect(l.size).toBe(7);
    expect(byUrl(remote.db, remote.result.runId, "site")).toEqual(l);
    expect(remote.result.credits).toBe(local.result.credits);
  });

  it("map, then scrape the URLs it found", async () => {
    const steps = `  - id: links\n    map: { url: "${site.url}/", sitemap: skip }\n  - id: items\n    scrape: { urls: { from: links, include: ["/items/*"] }, formats: [markdown] }\n`;
    const { local, remote } = await both(steps);
    const mapped = (db: string, runId: number) => readDocuments(db, runId, "links")[0]!.document.links;
    expect(mapped(remote.db, remote.result.runId)).toEqual(mapped(local.db, local.result.runId));
    expect(byUrl(remote.db, remote.result.runId, "items")).toEqual(byUrl(local.db, local.result.runId, "items"));
  });

  it("extract, deterministic on both sides", async () => {
    const schema = "{ type: object, properties: { items: { type: array, items: { type: object, properties: { name: { type: string }, price: { type: number } } } } } }";
    const steps = `  - id: prices\n    extract: { urls: ["${site.url}/items/1", "${site.url}/items/4"], schema: ${schema}, showSources: true }\n`;
    const { local, remote } = await both(steps);
    const result = (db: string, runId: number) => {
      const store = new SqliteStore(db);
      try {
        return JSON.parse(store.stepResult(runId, "prices")!);
      } finally {
        store.close();
      }
    };
    const l = result(local.db, local.result.runId);
    expect(l.data.items).toEqual([{ name: "Item 1", price: 10 }, { name: "Item 4", price: 40 }]);
    // The service reports what the extract was charged in all (its pages too), the local step
    // only its model tokens (its pages are charged as they are stored): the runs' ledgers agree.
    const { creditsUsed: remoteCredits, ...r } = result(remote.db, remote.result.runId);
    const { creditsUsed: _local, ...rest } = l;
    expect(r).toEqual(rest);
    expect(remoteCredits).toBe(2);
    expect(remote.result.credits).toBe(local.result.credits);
  });

  it("change tracking across two runs", async () => {
    const steps = `  - id: watch\n    scrape: { url: "${site.url}/about", formats: [markdown, { type: changeTracking, modes: [git-diff] }], maxAge: 0 }\n`;
    const first = await both(steps);
    const again = async (side: typeof first.local, env: Record<string, string>, extra: string) => {
      const run = await runYaml(pipeline(steps, extra), { env, db: side.db });
      if (!run.result.ok) throw new Error("invalid");
      return byUrl(side.db, run.result.runId, "watch");
    };
    const local2 = await again(first.local, {}, "");
    const remote2 = await again(first.remote, { FIRECRAWL_API_KEY: serve.keys.contract! }, `engine: { kind: firecrawl, baseUrl: "${serve.server.url}" }\n`);
    expect(byUrl(first.remote.db, first.remote.result.runId, "watch")).toEqual(byUrl(first.local.db, first.local.result.runId, "watch"));
    expect(remote2).toEqual(local2);
    expect([...local2.values()][0]).toMatchObject({ changeTracking: { changeStatus: "same", visibility: "visible" } });
  });

  it("search, its results scraped, then a scrape of the URLs it found", async () => {
    const steps = `  - id: found\n    search: { query: "shop items", limit: 3, sources: [web, news], scrapeOptions: { formats: [markdown] } }\n  - id: again\n    scrape: { urls: { from: found, limit: 2 }, formats: [markdown] }\n`;
    const yaml = (engine: string) => pipeline(steps, `${engine}${LIVE}`);
    const local = await runYaml(yaml(""), { env: { SCRAPELINE_SEARXNG_URL: searx.url } });
    const remote = await runYaml(yaml(`engine: { kind: firecrawl, baseUrl: "${serve.server.url}" }\n`), { env: { FIRECRAWL_API_KEY: serve.keys.contract! } });
    if (!local.result.ok || !remote.result.ok) throw new Error("invalid pipeline");
    expect(local.result.status).toBe("succeeded");
    expect(remote.result.status).toBe("succeeded");
    const results = (db: string, runId: number) => {
      const store = new SqliteStore(db);
      try {
        return (JSON.parse(store.stepResult(runId, "found")!) as { data: unknown }).data;
      } finally {
        store.close();
      }
    };
    const found = results(local.db, local.result.runId) as { web: unknown[]; news: unknown[] };
    expect(found.web).toHaveLength(3);
    expect(found.news).toHaveLength(1);
    expect(results(remote.db, remote.result.runId)).toEqual(found);
    const l = byUrl(local.db, local.result.runId, "found");
    expect(l.size).toBe(4);
    expect(byUrl(remote.db, remote.result.runId, "found")).toEqual(l);
    expect(byUrl(remote.db, remote.result.runId, "again")).toEqual(byUrl(local.db, local.result.runId, "again"));
    expect(remote.result.credits).toBe(local.result.credits);
  });

  it("agent: the same model turns give the same data, sources, transcript and credits", async () => {
    const turns = () =>
      llm.answer(
        { toolCalls: [{ name: "scrape", arguments: { url: `${site.url}/` } }], tokens: 60 },
        { toolCalls: [{ name: "scrape", arguments: { url: `${site.url}/items/3` } }], tokens: 60 },
        { content: JSON.stringify({ data: { name: "Item 3", price: 30 }, sources: { name: [`${site.url}/items/3`] } }), tokens: 60 },
      );
    // A server of its own with a model (the one above extracts deterministically).
    await llm.start();
    const modelServe = await startServe({ contract: { planTokens: 1_000_000 } }, { env: { SCRAPELINE_LLM_BASE_URL: llm.url, SCRAPELINE_LLM_MODEL: "contract-model" } });
    onTestFinished(async () => {
      await modelServe.stop();
      await llm.stop();
    });
    const steps = `  - id: ask\n    agent: { prompt: "The price of item 3", urls: ["${site.url}/"], schema: { type: object, properties: { name: { type: string }, price: { type: number } } } }\n`;
    turns();
    const local = await runYaml(pipeline(steps, LIVE), { env: { SCRAPELINE_LLM_BASE_URL: llm.url, SCRAPELINE_LLM_MODEL: "contract-model" } });
    turns();
    const remote = await runYaml(pipeline(steps, `engine: { kind: firecrawl, baseUrl: "${modelServe.server.url}" }\n${LIVE}`), { env: { FIRECRAWL_API_KEY: modelServe.keys.contract! } });
    if (!local.result.ok || !remote.result.ok) throw new Error("invalid pipeline");
    const result = (db: string, runId: number) => {
      const store = new SqliteStore(db);
      try {
        return JSON.parse(store.stepResult(runId, "ask")!) as { status: string; data: unknown; sources: unknown; creditsUsed: number; transcript: unknown[] };
      } finally {
        store.close();
      }
    };
    const l = result(local.db, local.result.runId);
    const r = result(remote.db, remote.result.runId);
    expect(l).toMatchObject({ status: "completed", data: { name: "Item 3", price: 30 }, sources: { name: [`${site.url}/items/3`], price: [`${site.url}/items/3`] }, creditsUsed: 2 + 12 });
    expect({ status: r.status, data: r.data, sources: r.sources, creditsUsed: r.creditsUsed, transcript: r.transcript }).toEqual({ status: l.status, data: l.data, sources: l.sources, creditsUsed: l.creditsUsed, transcript: l.transcript });
    expect(remote.result.credits).toBe(local.result.credits);
  });

  it("parse: the same files converted locally and uploaded to POST /v2/parse, tracked across two runs", async () => {
    const dir = mkdtempSync(join(tmpdir(), "scrapeline-contract-"));
    writeFileSync(join(dir, "report.docx"), await makeDocx());
    writeFileSync(join(dir, "prices.xlsx"), makeWorkbook("xlsx", { Prices: [["Item", "Price"], ["Apple", 2]], Notes: [["Seasonal"]] }, { Title: "Prices" }));
    writeFileSync(join(dir, "q3.pdf"), makePdf([["First page"], ["Second page"]], { title: "Q3" }));
    writeFileSync(join(dir, "stock.csv"), "name,qty\nwidget,3\n");
    const steps = `  - id: files\n    parse: { files: ["${join(dir, "*")}"], allowOutside: true, formats: [markdown, links, { type: changeTracking }] }\n`;
    const files = (db: string, runId: number) => byUrl(db, runId, "files");
    const { local, remote } = await both(steps);
    expect(remote.result.status).toBe("succeeded");
    const l = files(local.db, local.result.runId);
    expect(l.size).toBe(4);
    expect(files(remote.db, remote.result.runId)).toEqual(l);
    expect(remote.result.credits).toBe(local.result.credits);
    expect(local.result.credits).toBe(5);
    const again = await runYaml(pipeline(steps, `engine: { kind: firecrawl, baseUrl: "${serve.server.url}" }\n`), { env: { FIRECRAWL_API_KEY: serve.keys.contract! }, db: remote.db });
    if (!again.result.ok) throw new Error("invalid");
    expect([...files(remote.db, again.result.runId).values()].map((d) => (d as Document).changeTracking?.changeStatus)).toEqual(["same", "same", "same", "same"]);
  });
});

