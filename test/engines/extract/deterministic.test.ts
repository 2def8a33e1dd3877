import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Extractor } from "../../../src/engines/local/extract/index.js";
import { loadPipeline } from "../../../src/pipeline/index.js";

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/extract/${name}`, import.meta.url), "utf8");
const extractor = new Extractor({ mode: "deterministic" });
const page = (name: string, url = "https://shop.example/p/1") => ({ url, markdown: "", rawHtml: fixture(name) });

const productSchema = {
  type: "object",
  properties: {
    name: { type: "string" },
    brand: { type: "string" },
    price: { type: "number" },
    currency: { type: "string" },
    inStock: { type: "boolean" },
    rating: { type: "number" },
    reviewCount: { type: "integer" },
    image: { type: "string" },
    reviews: { type: "array", items: { type: "object", properties: { author: { type: "string" }, rating: { type: "integer" }, reviewBody: { type: "string" } } } },
  },
  required: ["name", "price"],
};

describe("deterministic extraction", () => {
  it("fills a product schema from JSON-LD, skipping the site's own items", async () => {
    const result = await extractor.extractPage(page("product-jsonld.html"), { schema: productSchema });
    expect(result).toMatchObject({ tokensUsed: 0, extractor: "deterministic", warnings: [] });
    expect(result.data).toEqual({
      name: "Trail Runner 2",
      brand: "Fleetfoot",
      price: 129.9,
      currency: "EUR",
      inStock: true,
      rating: 4.6,
      reviewCount: 212,
      image: "https://shop.example/img/trail-runner-2.jpg",
      reviews: [
        { author: "Ana", rating: 5, reviewBody: "Great grip." },
        { author: "Ben", rating: 4, reviewBody: "Runs small." },
      ],
    });
  });

  it("fills the same schema from microdata, nested items and content attributes included", async () => {
    const result = await extractor.extractPage(page("product-microdata.html", "https://lamps.example/desk"), { schema: productSchema });
    expect(result.data).toEqual({
      name: "Desk Lamp & Shade",
      brand: "Lumen",
      price: 1299,
      currency: "USD",
      inStock: false,
      image: "https://lamps.example/img/lamp.png",
    });
  });

  it("reads x-selector annotations: arrays of items with per-field selectors, attributes made absolute, types coerced", async () => {
    const schema = {
      type: "object",
      properties: {
        heading: { type: "string", "x-selector": "h1.heading" },
        total: { type: "integer", "x-selector": ".count" },
        tags: { type: "array", items: { type: "string" }, "x-selector": ".tags li" },
        items: {
          type: "array",
          "x-selector": "li.item",
          items: {
            type: "object",
            properties: {
              name: { type: "string", "x-selector": "h2" },
              url: { type: "string", "x-selector": "a.link", "x-attribute": "href" },
              price: { type: "number", "x-selector": ".price" },
              inStock: { type: "boolean", "x-selector": ".stock" },
            },
          },
        },
      },
    };
    const result = await extractor.extractPage(page("catalogue-annotated.html", "https://store.example/catalogue?page=1"), { schema });
    expect(result.data).toEqual({
      heading: "Spring catalogue",
      total: 3,
      tags: ["kitchen", "home"],
      items: [
        { name: "Kettle", url: "https://store.example/items/kettle", price: 24.5, inStock: true },
        { name: "Toaster", url: "https://store.example/items/toaster", price: 1049, inStock: false },
        { name: "Mug", url: "https://store.example/items/mug", price: 6 },
      ],
    });
  });

  it("falls back to OpenGraph and the title, and leaves out what the page does not state", async () => {
    const schema = { type: "object", properties: { title: { type: "string" }, description: { type: "string" }, price: { type: "number" } } };
    expect((await extractor.extractPage(page("plain.html"), { schema })).data).toEqual({ title: "Nothing structured" });
    const og = await extractor.extractPage(page("product-jsonld.html"), { schema: { type: "object", properties: { description: { type: "string" }, sitename: { type: "string" } } } });
    expect(og.data).toEqual({ description: "A light trail shoe with a grippy sole." });
  });

  it("fills the example pipeline's annotated schema (pipelines/books-catalogue.yaml) from catalogue markup", async () => {
    const loaded = await loadPipeline(new URL("../../../pipelines/books-catalogue.yaml", import.meta.url).pathname, { env: {} });
    const step = loaded.pipeline!.steps.find((s) => s.kind === "extract")!;
    const schema = step.kind === "extract" ? step.body.schema : undefined;
    const result = await extractor.extractPage(page("product-pods.html", "https://books.toscrape.com/catalogue/page-1.html"), { schema: schema! });
    expect(result.data).toEqual({
      books: [
        { title: "A Light in the Attic", price: 51.77, inStock: true },
        { title: "Tipping the Velvet", price: 53.74, inStock: true },
      ],
    });
  });

  it("gives byte-identical output for identical pages", async () => {
    const runs = await Promise.all([1, 2, 3].map(() => extractor.extractPage(page("product-jsonld.html"), { schema: productSchema })));
    const texts = runs.map((r) => JSON.stringify(r.data));
    expect(new Set(texts).size).toBe(1);
  });

  it("reports a JSON-LD block that does not parse and still reads the rest", async () => {
    const html = `<html><head><script type="application/ld+json">{"@type": "Product", "name": </script><meta property="og:title" content="Broken"></head><body></body></html>`;
    const result = await extractor.extractPage({ url: "https://x.example/", markdown: "", rawHtml: html }, { schema: { type: "object", properties: { name: { type: "string" } } } });
    expect(result.data).toEqual({ name: "Broken" });
    expect(result.warnings.join(" ")).toMatch(/JSON-LD block does not parse/);
  });

  it("rejects a prompt-only extraction without a model, naming both ways out", async () => {
    await expect(extractor.extractPage(page("plain.html"), { prompt: "the page's topic" })).rejects.toThrow(/needs an LLM.*SCRAPELINE_LLM_BASE_URL.*JSON Schema/s);
  });

  it("rejects an x-selector that is not CSS", async () => {
    const schema = { type: "object", properties: { a: { type: "string", "x-selector": "li[[" } } };
    await expect(extractor.extractPage(page("plain.html"), { schema })).rejects.toThrow(/x-selector "li\[\[" is not a valid CSS selector/);
  });
});
