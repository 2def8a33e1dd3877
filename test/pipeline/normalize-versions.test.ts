import { describe, expect, it } from "vitest";
import type { ScrapeOptions, Step } from "../../src/core/index.js";
import { load, scrape, withStep } from "./helpers.js";

/** Scrape options written in v1 form get v1's defaults where v1 and v2 differ (SPEC.md "Versioning"). */

function options(input: object): ScrapeOptions {
  const result = load(input);
  if (!result.pipeline) throw new Error(JSON.stringify(result.diagnostics, null, 2));
  const step: Step = result.pipeline.steps[0]!;
  if (step.kind === "scrape") return step.body;
  if (step.kind === "crawl" || step.kind === "extract") return step.body.scrapeOptions;
  throw new Error("no scrape options");
}

const V2 = { maxAge: 172_800_000, skipTlsVerification: true };
const V1 = { maxAge: 0, skipTlsVerification: false };

describe("defaults of scrape options by the form they are written in", () => {
  it("v2 form: v2 defaults", () => {
    expect(options(scrape({ formats: ["markdown", "json"] }))).toMatchObject(V2);
    expect(options(withStep({ crawl: { url: "https://e.com", maxDiscoveryDepth: 2 } }))).toMatchObject(V2);
  });

  for (const [name, body] of [
    ["parsePDF", { parsePDF: false }],
    ["jsonOptions", { formats: ["json"], jsonOptions: { prompt: "the title" } }],
    ["changeTrackingOptions", { formats: ["markdown", "changeTracking"], changeTrackingOptions: { modes: ["git-diff"] } }],
    ["the extract format", { formats: ["extract"] }],
    ["screenshot@fullPage", { formats: ["screenshot@fullPage"] }],
  ] as const) {
    it(`v1 form (${name}): maxAge 0 and TLS verification by default`, () => {
      expect(options(scrape(body))).toMatchObject(V1);
    });
  }

  for (const key of ["maxDepth", "allowBackwardCrawling", "ignoreSitemap"]) {
    it(`a crawl in v1 form (${key}) scrapes its pages with v1 defaults`, () => {
      expect(options(withStep({ crawl: { url: "https://e.com", [key]: key === "maxDepth" ? 2 : true } }))).toMatchObject(V1);
    });
  }

  it("values written in the file win over either version's defaults", () => {
    expect(options(scrape({ parsePDF: true, maxAge: 60_000, skipTlsVerification: true }))).toMatchObject({ maxAge: 60_000, skipTlsVerification: true });
  });

  it("v1 forms in defaults.scrapeOptions make every step's options v1", () => {
    expect(options(scrape({}, { defaults: { scrapeOptions: { parsePDF: true } } }))).toMatchObject(V1);
  });
});
