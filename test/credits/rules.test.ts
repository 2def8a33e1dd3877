import { describe, expect, it } from "vitest";
import type { Document, ScrapeOptions } from "../../src/core/index.js";
import { estimateStep, extractCredits, serviceCreditRules } from "../../src/credits/index.js";
import { loadPipelineText } from "../../src/pipeline/index.js";

function optionsFrom(extra: Record<string, unknown>): ScrapeOptions {
  const yaml = `version: 1\nname: c\nsteps:\n  - id: s\n    scrape: ${JSON.stringify({ url: "https://e.com/", ...extra })}\n`;
  const step = loadPipelineText("c.yaml", yaml).pipeline!.steps[0]!;
  if (step.kind !== "scrape") throw new Error("not a scrape step");
  return step.body;
}

const page = (metadata: Partial<Document["metadata"]> = {}): Document => ({ metadata: { sourceURL: "u", url: "u", statusCode: 200, ...metadata } });

describe("credits per document (DESIGN.md §6)", () => {
  it.each([
    ["a page", {}, page(), 1],
    ["a 404 page is still a document", {}, page({ statusCode: 404 }), 1],
    ["json format: 5 in total", { formats: ["markdown", { type: "json", prompt: "x" }] }, page(), 5],
    ["changeTracking json mode: 5", { formats: ["markdown", { type: "changeTracking", modes: ["json"] }] }, page(), 5],
    ["changeTracking git-diff: +0", { formats: ["markdown", { type: "changeTracking", modes: ["git-diff"] }] }, page(), 1],
    ["parsed PDF: 1 per page", {}, page({ numPages: 7 }), 7],
    ["PDF without parsing: 1 flat", { parsers: [] }, page({ numPages: 7 }), 1],
    ["threat protection scan: +2", { threatProtection: { mode: "normal" } }, page(), 3],
    ["enhanced proxy: +0", { proxy: "enhanced" }, page(), 1],
    ["links, html, screenshot formats: +0", { formats: ["markdown", "links", "html", "rawHtml", "images"] }, page(), 1],
  ])("%s", (_name, extra, document, credits) => {
    expect(serviceCreditRules.forDocument(document, optionsFrom(extra))).toBe(credits);
  });

  it("estimates a page before fetching it", () => {
    expect(serviceCreditRules.estimatePage(optionsFrom({}))).toBe(1);
    expect(serviceCreditRules.estimatePage(optionsFrom({ formats: [{ type: "json" }] }))).toBe(5);
  });

  it("bills extraction at 15 tokens per credit, rounding up", () => {
    expect([0, 1, 15, 16, 300].map(extractCredits)).toEqual([0, 1, 1, 2, 20]);
  });

  it("estimates steps for plan", () => {
    const yaml = "version: 1\nname: e\nsteps:\n  - id: m\n    map: { url: https://e.com }\n  - id: c\n    crawl: { url: https://e.com, limit: 40 }\n  - id: s\n    scrape: { urls: [https://e.com/a, https://e.com/b] }\n";
    const steps = loadPipelineText("e.yaml", yaml).pipeline!.steps;
    expect(steps.map((s) => estimateStep(s).credits)).toEqual([1, 40, 2]);
  });

  it("estimates an extract's web search: one search and up to 5 more pages", () => {
    const yaml = (web: boolean) => `version: 1\nname: e\nsteps:\n  - id: x\n    extract: { urls: [https://e.com/a, https://e.com/b], prompt: kettles, enableWebSearch: ${web} }\n`;
    const [plain] = loadPipelineText("e.yaml", yaml(false)).pipeline!.steps;
    const [web] = loadPipelineText("e.yaml", yaml(true)).pipeline!.steps;
    expect(estimateStep(plain!).credits).toBe(2);
    expect(estimateStep(web!)).toMatchObject({ credits: 2 + 2 + 5, note: expect.stringContaining("web search 2 + up to 5 page(s) × 1") });
  });
});
