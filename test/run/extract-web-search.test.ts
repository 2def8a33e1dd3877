import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchQuery } from "../../src/runner/steps/extract-web-search.js";
import { FakeSearxng } from "../helpers/searxng.js";
import { FixtureSite } from "../helpers/site.js";
import { pipeline, readDocuments, readStepResult, runYaml } from "./helpers.js";

const site = new FixtureSite();
let searx: FakeSearxng;

const product = (i: number) => `<!doctype html><html><head><title>Kettle ${i}</title><script type="application/ld+json">${JSON.stringify({ "@context": "https://schema.org", "@type": "Product", name: `Kettle ${i}`, offers: { "@type": "Offer", price: String(20 + i), priceCurrency: "EUR" } })}</script></head><body><main><h1>Kettle ${i}</h1><p>Price ${20 + i} EUR</p></main></body></html>`;

beforeAll(async () => {
  for (const i of [1, 2, 3]) site.page(`/kettles/${i}`, product(i));
  await site.start();
  // The web knows two more kettle pages (and the one the step names, which is not read twice).
  searx = await new FakeSearxng({ results: { general: [2, 3, 1].map((i) => ({ url: `${site.url}/kettles/${i}`, title: `Kettle ${i}`, content: "A kettle" })) } }).start();
});
afterAll(async () => {
  await site.stop();
  await searx.stop();
});

const schema = `{ type: object, properties: { products: { type: array, items: { type: object, properties: { name: { type: string }, price: { type: number } }, required: [name] } } } }`;
const extract = (body: string) => pipeline(`  - id: kettles\n    extract:\n${body.replace(/^/gm, "      ")}\n`);


describe("extract's enableWebSearch on the local engine (SearXNG)", () => {
  it("searches the web for the prompt and extracts from the results too, billed like a search", async () => {
    const yaml = extract(`urls: ["${site.url}/kettles/1"]\nprompt: "Prices of electric kettles\\nList each with its price."\nschema: ${schema}\nshowSources: true\nenableWebSearch: true`);
    const { result, db } = await runYaml(yaml, { env: { SCRAPELINE_SEARXNG_URL: searx.url } });
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    expect(result.status).toBe("succeeded");
    expect(searx.requests.at(-1)?.get("q")).toBe("Prices of electric kettles");
    expect(readDocuments(db, result.runId, "kettles").map((d) => d.url).sort()).toEqual([1, 2, 3].map((i) => `${site.url}/kettles/${i}`));
    const extracted = readStepResult(db, result.runId, "kettles");
    expect(extracted.data.products.map((p: { name: string }) => p.name).sort()).toEqual(["Kettle 1", "Kettle 2", "Kettle 3"]);
    // Three pages as scrapes, and the search: 2 credits for up to 10 results.
    expect(result.credits).toBe(3 + 2);
  });

  it("an extract without a prompt cannot search for one, and says so", async () => {
    const { result, events } = await runYaml(extract(`urls: ["${site.url}/kettles/1"]\nschema: ${schema}\nenableWebSearch: true`), { env: { SCRAPELINE_SEARXNG_URL: searx.url } });
    if (!result.ok) throw new Error("invalid");
    expect(result.status).toBe("failed");
    expect(events.find((e) => e.type === "step-finished")).toMatchObject({ error: 'enableWebSearch searches the web for the extract\'s prompt, and extract step "kettles" has none: add a prompt, or set enableWebSearch: false' });
  });

  it("sends the prompt's first line, cut at a word under 200 characters", () => {
    expect(searchQuery("  Kettle prices \n more")).toBe("Kettle prices");
    const long = `${"word ".repeat(60)}end`;
    const query = searchQuery(long)!;
    expect(query.length).toBeLessThanOrEqual(200);
    expect(query.endsWith("word")).toBe(true);
    expect(searchQuery("   ")).toBeUndefined();
  });
});
