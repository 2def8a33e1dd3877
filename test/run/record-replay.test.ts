import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeLlm } from "../helpers/llm-server.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { SqliteStore } from "../../src/store/index.js";
import { fixtureText, packedBodies, readPack, replaceBody } from "./fixture-packs.js";
import { pipeline, readDocuments, runYaml, workdir } from "./helpers.js";

const site = new FixtureSite();
const llm = new FakeLlm();
const PAGES = 12;
const SECRETS = { header: "hdr-secret-5f1c", apiKey: "sk-secret-model-key-77", cookie: "cookie-secret-a9d2", query: "qs-secret-0b3e" };

beforeAll(async () => {
  site.route("/robots.txt", (_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nDisallow: /docs/private\n"));
  site.route("/docs/", (_req, res) => {
    const links = Array.from({ length: PAGES }, (_, i) => `<a href="/docs/p${i}">Page ${i}</a>`).join(" ");
    res.writeHead(200, { "content-type": "text/html", "set-cookie": `sid=${SECRETS.cookie}; Path=/` }).end(htmlPage("Docs", `<p>${links}</p><a href="/docs/private">Private</a>`));
  });
  for (let i = 0; i < PAGES; i++) {
    // Long pages and short ones (a fixture of format 1 gzipped the long ones).
    const filler = i % 2 === 0 ? `<p>${"Long text of the page. ".repeat(300)}</p>` : "";
    site.page(`/docs/p${i}`, htmlPage(`Page ${i}`, `<article><p>Body of page ${i}.</p>${filler}</article><aside>Sidebar ${i}</aside>`));
  }
  site.route("/product", (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Kettle", "<p>The Kettle costs 30 EUR.</p>")));
  await site.start();
  llm.fallback = () => ({ content: '{"name":"Kettle","price":30}', tokens: 10 });
  await llm.start();
});
afterAll(async () => {
  await site.stop();
  await llm.stop();
});

function yaml(): string {
  return pipeline(
    `  - id: site\n    crawl: { url: "${site.url}/docs/", sitemap: skip, scrapeOptions: { formats: [markdown, links], onlyMainContent: false, headers: { Authorization: "Bearer ${SECRETS.header}" } } }\n` +
      `  - id: product\n    scrape: { url: "${site.url}/product?token=${SECRETS.query}", formats: [markdown, { type: json, prompt: "the product's name and price" }] }\n`,
    "concurrency: 4\n",
  );
}


/** A run's documents by step and URL, without what differs between two runs of the same pages. */
function documentsOf(db: string, runId: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const page of readDocuments(db, runId)) out[`${page.stepId} ${page.url}`] = page.document;
  return out;
}

describe("record and replay", () => {
  let fixture = "";
  let recorded: { db: string; runId: number };

  it("records a crawl and a model extraction; the fixture holds no secret of the run", async () => {
    fixture = join(workdir(), "fixtures", "docs");
    const env = { SCRAPELINE_LLM_BASE_URL: llm.url, SCRAPELINE_LLM_MODEL: "m", SCRAPELINE_LLM_API_KEY: SECRETS.apiKey };
    const { result, db } = await runYaml(yaml(), { env, record: fixture });
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    expect(result.status).toBe("succeeded");
    recorded = { db, runId: result.runId };
    expect(readDocuments(db, result.runId, "site")).toHaveLength(PAGES + 1);
    expect(readDocuments(db, result.runId, "product")[0]!.document.json).toEqual({ name: "Kettle", price: 30 });
    // The secrets did reach the site and the model.
    expect(llm.requests.some((r) => r.authorization === `Bearer ${SECRETS.apiKey}`)).toBe(true);

    const index = JSON.parse(readFileSync(join(fixture, "index.json"), "utf8"));
    const keys = Object.keys(index.requests);
    expect(keys).toEqual([...keys].sort());
    expect(keys).toContain(`GET ${site.url}/robots.txt`);
    expect(keys).toContain(`GET ${site.url}/product?token=REDACTED`);
    expect(Object.keys(index.modelCalls)).toHaveLength(1);
    expect(index.model).toEqual({ baseUrl: llm.url, model: "m" });
    // Bodies packed by the first digit of their hash, sorted, each once, compressed over 4 KB; the recording's own pack is gone.
    const shards = readdirSync(join(fixture, "bodies")).sort();
    expect(shards.length).toBeGreaterThan(1);
    const entries = shards.flatMap((shard) => readPack(join(fixture, "bodies", shard)));
    expect(entries.every(({ body, compressed }) => compressed === body.length > 4096)).toBe(true);
    expect(new Set(entries.map((e) => e.compressed))).toEqual(new Set([true, false]));
    for (const shard of shards) {
      expect(shard).toMatch(/^[0-9a-f]\.pack$/);
      const hashes = readPack(join(fixture, "bodies", shard)).map(({ hash, body }) => {
        expect(hash).toBe(createHash("sha256").update(body).digest("hex"));
        return hash;
      });
      expect(hashes).toEqual([...new Set(hashes)].sort());
      expect(hashes.every((hash) => hash[0] === shard[0])).toBe(true);
    }
    const packed = packedBodies(fixture);
    const named = [...Object.values(index.documents), ...Object.values(index.requests).map((entry) => (entry as { body: string }).body)] as string[];
    for (const name of named) expect(packed.has(name), name).toBe(true);
    expect(packed.get(index.requests[`GET ${site.url}/docs/p1`].body)!.toString("utf8")).toContain("Body of page 1.");

    const text = fixtureText(fixture);
    for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
    // The recording ended: its journal became index.json. Each crawled page's document was kept (the product's URL holds a token).
    expect(existsSync(join(fixture, "journal.jsonl"))).toBe(false);
    expect(Object.keys(index.documents)).toHaveLength(PAGES + 1);
  });

  it("replays with no server and no model key: the same documents and extracted data, byte for byte", async () => {
    await site.stop();
    await llm.stop();
    const modelCalls = llm.requests.length;
    const { result, db } = await runYaml(yaml(), { env: {}, replay: fixture });
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    expect(result.status).toBe("succeeded");
    expect(llm.requests.length).toBe(modelCalls);
    const replayed = documentsOf(db, result.runId);
    expect(Object.keys(replayed)).toHaveLength(PAGES + 2);
    expect(JSON.stringify(replayed, Object.keys(replayed).sort())).toBe(JSON.stringify(documentsOf(recorded.db, recorded.runId), Object.keys(replayed).sort()));
    for (const key of Object.keys(replayed)) expect(JSON.stringify(replayed[key])).toBe(JSON.stringify(documentsOf(recorded.db, recorded.runId)[key]));
  });

  it("re-extracts recorded pages with changed options (onlyMainContent) without the network", async () => {
    const changed = yaml().replace("onlyMainContent: false", "onlyMainContent: true");
    const { result, db } = await runYaml(changed, { env: {}, replay: fixture });
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    expect(result.status).toBe("succeeded");
    const page = readDocuments(db, result.runId, "site").find((p) => p.url.endsWith("/docs/p3"))!;
    expect(page.document.markdown).toContain("Body of page 3.");
    expect(page.document.markdown).not.toContain("Sidebar 3");
    const before = readDocuments(recorded.db, recorded.runId, "site").find((p) => p.url.endsWith("/docs/p3"))!;
    expect(before.document.markdown).toContain("Sidebar 3");
  });

  it("fails a page that was not recorded with not-recorded and its URL", async () => {
    // The product step's failure would stop the crawl beside it otherwise.
    const changed = yaml().replace("/product?", "/other?").replace("  - id: product\n", "  - id: product\n    continueOnError: true\n");
    const { result, db } = await runYaml(changed, { env: {}, replay: fixture });
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    expect(readDocuments(db, result.runId, "site")).toHaveLength(PAGES + 1);
    expect(readDocuments(db, result.runId, "product")).toHaveLength(0);
    const store = new SqliteStore(db);
    try {
      expect(store.failures(result.runId)).toEqual([expect.objectContaining({ stepId: "product", kind: "not-recorded", error: expect.stringContaining(`not-recorded: GET ${site.url}/other?token=REDACTED is not in the fixture`) })]);
    } finally {
      store.close();
    }
  });

  it("answers a model request that was not recorded with not-recorded", async () => {
    const changed = yaml().replace("the product's name and price", "only the name");
    const { result, db } = await runYaml(changed, { env: {}, replay: fixture });
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    const store = new SqliteStore(db);
    try {
      expect(store.failures(result.runId)).toEqual([expect.objectContaining({ stepId: "product", kind: "not-recorded", error: expect.stringContaining("not-recorded: a model request (model m") })]);
    } finally {
      store.close();
    }
  });

  it("takes back the document recorded with a page when the options match; converting again (scrapeline test) ignores it", async () => {
    const index = JSON.parse(readFileSync(join(fixture, "index.json"), "utf8"));
    const bodies = packedBodies(fixture);
    const read = (name: string) => JSON.parse(bodies.get(name)!.toString("utf8"));
    const name = (Object.values(index.documents) as string[]).find((n) => read(n).metadata.url.endsWith("/docs/p3"))!;
    replaceBody(fixture, name, Buffer.from(JSON.stringify({ ...read(name), markdown: "taken from the recording" })));
    const page3 = (db: string, runId: number) => readDocuments(db, runId, "site").find((p) => p.url.endsWith("/docs/p3"))!.document.markdown;
    const taken = await runYaml(yaml(), { env: {}, replay: fixture });
    if (!taken.result.ok) throw new Error(JSON.stringify(taken.result.diagnostics));
    expect(page3(taken.db, taken.result.runId)).toBe("taken from the recording");
    const converted = await runYaml(yaml(), { env: {}, replay: fixture, convertAgain: true });
    if (!converted.result.ok) throw new Error(JSON.stringify(converted.result.diagnostics));
    expect(page3(converted.db, converted.result.runId)).toContain("Body of page 3.");
  });

  it("keeps what a failed run fetched, and its failure replays as the same error", async () => {
    await site.start(); // stopped by the replay test above
    const dead = join(workdir(), "dead");
    const failing = pipeline(`  - id: pages\n    scrape: { urls: ["${site.url}/docs/p1", "http://127.0.0.1:9/gone"] }\n`).replace(/retry: \{[^}]*\}/, "retry: { attempts: 1 }");
    const live = await runYaml(failing, { env: {}, record: dead });
    if (!live.result.ok) throw new Error(JSON.stringify(live.result.diagnostics));
    expect(live.result.status).toBe("failed");
    const index = JSON.parse(readFileSync(join(dead, "index.json"), "utf8"));
    expect(index.requests[`GET ${site.url}/docs/p1`]).toMatchObject({ status: 200 });
    expect(index.requests["GET http://127.0.0.1:9/gone"]).toEqual({ error: expect.objectContaining({ kind: "network" }) });
    const replay = await runYaml(failing, { env: {}, replay: dead });
    if (!replay.result.ok) throw new Error(JSON.stringify(replay.result.diagnostics));
    expect(replay.result.status).toBe("failed");
    expect(readDocuments(replay.db, replay.result.runId, "pages").map((p) => p.url)).toEqual([`${site.url}/docs/p1`]);
    const store = new SqliteStore(replay.db);
    try {
      expect(store.failures(replay.result.runId)).toEqual([expect.objectContaining({ url: "http://127.0.0.1:9/gone", kind: "network" })]);
    } finally {
      store.close();
    }
  });
});
