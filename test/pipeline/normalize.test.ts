import { describe, expect, it } from "vitest";
import type { ScrapeOptions, Step } from "../../src/core/index.js";
import { codes, load, scrape, withStep } from "./helpers.js";

function firstStep(input: object): Step {
  const result = load(input);
  if (!result.pipeline) throw new Error(JSON.stringify(result.diagnostics, null, 2));
  return result.pipeline.steps[0]!;
}

function scrapeOptionsOf(step: Step): ScrapeOptions {
  if (step.kind === "scrape") return step.body;
  if (step.kind === "crawl" || step.kind === "extract") return step.body.scrapeOptions;
  throw new Error("no scrape options");
}

describe("defaults", () => {
  it("fills the v2 defaults of scrape options in one place", () => {
    const options = scrapeOptionsOf(firstStep(scrape({})));
    expect(options).toMatchObject({
      formats: [{ type: "markdown" }],
      onlyMainContent: true,
      maxAge: 172_800_000,
      waitFor: 0,
      mobile: false,
      skipTlsVerification: true,
      timeout: 30_000,
      parsers: [{ type: "pdf" }],
      location: { country: "US" },
      removeBase64Images: true,
      blockAds: true,
      proxy: "basic",
      storeInCache: true,
    });
  });

  it("fills pipeline, retry, crawl, map and extract defaults", () => {
    const result = load({
      version: 1,
      name: "t",
      steps: [
        { id: "c", crawl: { url: "https://e.com" } },
        { id: "m", map: { url: "https://e.com" } },
        { id: "x", extract: { urls: ["https://e.com"] }, retry: { attempts: 5 } },
      ],
    });
    const p = result.pipeline!;
    expect(p).toMatchObject({ engine: { kind: "local", browser: "auto" }, concurrency: 8, perHostConcurrency: 2, allowPrivateNetwork: false, retry: { attempts: 3, initialDelayMs: 500, maxDelayMs: 30_000 } });
    expect(p.steps[0]!.body).toMatchObject({ limit: 10_000, sitemap: "include", crawlEntireDomain: false, includePaths: [], deduplicateSimilarURLs: true });
    expect(p.steps[1]!.body).toMatchObject({ limit: 5000, includeSubdomains: true, ignoreQueryParameters: true, sitemap: "include" });
    expect(p.steps[2]!.body).toMatchObject({ includeSubdomains: true, showSources: false, ignoreInvalidURLs: false, enableWebSearch: false });
    expect(p.steps[2]!.retry).toEqual({ attempts: 5, initialDelayMs: 500, maxDelayMs: 30_000 });
  });

  it("lets defaults.scrapeOptions apply to every step, and a step's own options win", () => {
    const result = load({
      version: 1,
      name: "t",
      defaults: { scrapeOptions: { timeout: 60_000, onlyMainContent: false } },
      steps: [
        { id: "a", scrape: { url: "https://e.com", timeout: 10_000 } },
        { id: "b", crawl: { url: "https://e.com" } },
      ],
    });
    const [a, b] = result.pipeline!.steps;
    expect(scrapeOptionsOf(a!)).toMatchObject({ timeout: 10_000, onlyMainContent: false });
    expect(scrapeOptionsOf(b!)).toMatchObject({ timeout: 60_000, onlyMainContent: false });
  });

  it("fills action and format defaults", () => {
    const options = scrapeOptionsOf(firstStep(scrape({ formats: ["markdown", "screenshot", { type: "changeTracking" }], actions: [{ type: "click", selector: "a" }, { type: "scroll" }, { type: "pdf" }] })));
    expect(options.formats).toEqual([{ type: "markdown" }, { type: "screenshot", fullPage: false }, { type: "changeTracking", modes: [], tag: null }]);
    expect(options.actions).toEqual([
      { type: "click", selector: "a", all: false },
      { type: "scroll", direction: "down" },
      { type: "pdf", format: "Letter", landscape: false, scale: 1 },
    ]);
  });

  it("normalizes the engine forms", () => {
    expect(load(scrape({}, { engine: "firecrawl" })).pipeline!.engine).toEqual({ kind: "firecrawl", apiKeyEnv: "FIRECRAWL_API_KEY" });
    expect(load(scrape({}, { engine: { kind: "firecrawl", baseUrl: "http://localhost:3002", apiKeyEnv: "MY_KEY" } })).pipeline!.engine).toEqual({ kind: "firecrawl", baseUrl: "http://localhost:3002", apiKeyEnv: "MY_KEY" });
  });
});

describe("storeInCache", () => {
  it("is forced off by actions or headers, with a warning when the file asked for it", () => {
    expect(scrapeOptionsOf(firstStep(scrape({ actions: [{ type: "wait", milliseconds: 10 }] }))).storeInCache).toBe(false);
    expect(scrapeOptionsOf(firstStep(scrape({ headers: { Cookie: "a=b" } }))).storeInCache).toBe(false);
    expect(scrapeOptionsOf(firstStep(scrape({ headers: {} }))).storeInCache).toBe(true);
    const asked = load(scrape({ headers: { Cookie: "a=b" }, storeInCache: true }));
    expect(codes(asked, "warning")).toEqual(["store-in-cache-forced"]);
  });
});

describe("v1 forms map to v2 with a warning naming the replacement", () => {
  it("parsePDF → parsers", () => {
    const on = load(scrape({ parsePDF: true }));
    expect(scrapeOptionsOf(on.pipeline!.steps[0]!).parsers).toEqual([{ type: "pdf" }]);
    expect(on.diagnostics).toEqual([expect.objectContaining({ severity: "warning", code: "deprecated", hint: "use parsers: [pdf]" })]);
    expect(scrapeOptionsOf(load(scrape({ parsePDF: false })).pipeline!.steps[0]!).parsers).toEqual([]);
    expect(codes(load(scrape({ parsePDF: false, parsers: [] })))).toEqual(["conflicting-keys"]);
  });

  it("format extract → json, with jsonOptions folded in", () => {
    const result = load(scrape({ formats: ["markdown", "extract"], jsonOptions: { prompt: "p", systemPrompt: "s", schema: { type: "object" } } }));
    expect(scrapeOptionsOf(result.pipeline!.steps[0]!).formats).toEqual([{ type: "markdown" }, { type: "json", prompt: "s\n\np", schema: { type: "object" } }]);
    expect(codes(result, "warning").sort()).toEqual(["deprecated", "deprecated"]);
  });

  it("changeTracking + changeTrackingOptions → the object form", () => {
    const result = load(scrape({ formats: ["markdown", "changeTracking"], changeTrackingOptions: { modes: ["json"], tag: "n", prompt: "p" } }));
    expect(scrapeOptionsOf(result.pipeline!.steps[0]!).formats[1]).toEqual({ type: "changeTracking", modes: ["json"], tag: "n", prompt: "p" });
    expect(result.diagnostics[0]).toMatchObject({ code: "deprecated", hint: expect.stringContaining("type: changeTracking") });
  });

  it("screenshot@fullPage → {type: screenshot, fullPage: true}", () => {
    const result = load(scrape({ formats: ["screenshot@fullPage"] }));
    expect(scrapeOptionsOf(result.pipeline!.steps[0]!).formats).toEqual([{ type: "screenshot", fullPage: true }]);
    expect(codes(result, "warning")).toEqual(["deprecated"]);
  });

  it("crawl maxDepth, allowBackwardCrawling and ignoreSitemap", () => {
    const result = load(withStep({ crawl: { url: "https://e.com", maxDepth: 3, allowBackwardCrawling: true, ignoreSitemap: true } }));
    expect(result.pipeline!.steps[0]!.body).toMatchObject({ maxDiscoveryDepth: 3, crawlEntireDomain: true, sitemap: "skip" });
    expect(result.pipeline!.steps[0]!.body).not.toHaveProperty("maxDepth");
    expect(result.diagnostics.map((d) => d.hint)).toEqual(["use maxDiscoveryDepth: 3", "use crawlEntireDomain: true", "use sitemap: \"skip\""]);
    expect(codes(load(withStep({ crawl: { url: "https://e.com", maxDepth: 3, maxDiscoveryDepth: 2 } })))).toEqual(["conflicting-keys"]);
  });

  it("reports a v1 form in defaults once, not once per step", () => {
    const result = load({ version: 1, name: "t", defaults: { scrapeOptions: { parsePDF: false } }, steps: [{ id: "a", scrape: { url: "https://e.com" } }, { id: "b", scrape: { url: "https://e.com" } }] });
    expect(codes(result)).toEqual(["deprecated"]);
    expect(result.pipeline!.steps.map((s) => scrapeOptionsOf(s).parsers)).toEqual([[], []]);
  });
});
