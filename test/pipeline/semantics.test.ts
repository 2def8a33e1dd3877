import { describe, expect, it } from "vitest";
import { codes, load, scrape, withStep } from "./helpers.js";

describe("step graph", () => {
  it("accepts needs and urls.from naming earlier steps", () => {
    const result = load({
      version: 1,
      name: "t",
      steps: [
        { id: "a", map: { url: "https://example.com" } },
        { id: "b", scrape: { urls: { from: "a" } }, needs: ["a"] },
        { id: "c", extract: { urls: { from: "b" } } },
      ],
    });
    expect(result.diagnostics).toEqual([]);
    expect(result.pipeline?.steps.map((s) => s.id)).toEqual(["a", "b", "c"]);
  });

  it("rejects duplicate step ids at the second id, pointing back at the first", () => {
    const result = load("version: 1\nname: t\nsteps:\n  - id: a\n    map: {url: https://e.com}\n  - id: a\n    map: {url: https://e.com}\n");
    expect(result.diagnostics).toEqual([expect.objectContaining({ code: "duplicate-step-id", line: 6, column: 9, hint: "the first step with this id is on line 4" })]);
  });

  it("rejects an unknown step with a suggestion", () => {
    const result = load({ version: 1, name: "t", steps: [{ id: "pricing", map: { url: "https://e.com" } }, { id: "b", map: { url: "https://e.com" }, needs: ["pricng"] }] });
    expect(result.diagnostics).toEqual([expect.objectContaining({ code: "unknown-step", hint: 'did you mean "pricing"?' })]);
  });

  it("rejects a step that needs a later step, and names a cycle as a cycle", () => {
    const later = load({ version: 1, name: "t", steps: [{ id: "a", map: { url: "https://e.com" }, needs: ["b"] }, { id: "b", map: { url: "https://e.com" } }] });
    expect(codes(later)).toEqual(["step-order"]);
    const cycle = load({ version: 1, name: "t", steps: [{ id: "a", map: { url: "https://e.com" }, needs: ["b"] }, { id: "b", scrape: { urls: { from: "a" } } }] });
    expect(codes(cycle)).toEqual(["step-cycle"]);
    expect(cycle.diagnostics[0]?.message).toBe("steps form a cycle: a → b → a");
    const self = load(withStep({ map: { url: "https://e.com" }, needs: ["s"] }));
    expect(codes(self)).toEqual(["step-cycle"]);
  });
});

describe("scrape option rules", () => {
  it("changeTracking needs markdown in the same formats (both forms)", () => {
    expect(codes(load(scrape({ formats: ["markdown", { type: "changeTracking" }] })))).toEqual([]);
    expect(codes(load(scrape({ formats: ["html", { type: "changeTracking" }] })))).toEqual(["change-tracking-needs-markdown"]);
    expect(codes(load(scrape({ formats: ["changeTracking"] })))).toEqual(["change-tracking-needs-markdown"]);
  });

  it("allows at most one screenshot format", () => {
    expect(codes(load(scrape({ formats: ["markdown", "screenshot"] })))).toEqual([]);
    expect(codes(load(scrape({ formats: ["screenshot", { type: "screenshot", fullPage: true }] })))).toEqual(["multiple-screenshots"]);
  });

  it("waitFor may be at most half of timeout, including a timeout from defaults", () => {
    expect(codes(load(scrape({ waitFor: 15000 })))).toEqual([]);
    expect(codes(load(scrape({ waitFor: 15001 })))).toEqual(["wait-exceeds-timeout"]);
    expect(codes(load(scrape({ waitFor: 20000 }, { defaults: { scrapeOptions: { timeout: 60000 } } })))).toEqual([]);
    expect(codes(load(scrape({ waitFor: 6000, timeout: 10000 })))).toEqual(["wait-exceeds-timeout"]);
  });

  it("warns when write is not preceded by a click, and only then", () => {
    const ok = load(scrape({ actions: [{ type: "click", selector: "#q" }, { type: "write", text: "hi" }] }));
    expect(codes(ok)).toEqual([]);
    const warned = load(scrape({ actions: [{ type: "write", text: "hi" }] }));
    expect(codes(warned, "warning")).toEqual(["write-without-click"]);
    expect(warned.pipeline).toBeDefined();
  });

  it("checks the same rules in crawl and extract scrape options and in defaults", () => {
    const crawl = load(withStep({ crawl: { url: "https://e.com", scrapeOptions: { formats: ["changeTracking"] } } }));
    expect(codes(crawl)).toEqual(["change-tracking-needs-markdown"]);
    const defaults = load(scrape({}, { defaults: { scrapeOptions: { waitFor: 20000 } } }));
    expect(codes(defaults)).toEqual(["wait-exceeds-timeout"]);
  });
});

describe("URLs", () => {
  it("accepts http and https, rejects other schemes", () => {
    expect(codes(load(scrape({ url: "http://example.com/a" })))).toEqual([]);
    for (const url of ["file:///etc/passwd", "ftp://example.com/x", "javascript:alert(1)", "data:text/html,hi"]) {
      expect(codes(load(scrape({ url })))).toContain("unsupported-url");
    }
  });

  it("extract URLs may be globs; invalid ones fail unless ignoreInvalidURLs", () => {
    const ok = load(withStep({ extract: { urls: ["https://example.com/products/*"], prompt: "x" } }));
    expect(codes(ok)).toEqual([]);
    const bad = load(withStep({ extract: { urls: ["not a url", "https://example.com/"], prompt: "x" } }));
    expect(codes(bad)).toEqual(["invalid-url"]);
    const lenient = load(withStep({ extract: { urls: ["not a url", "https://example.com/"], prompt: "x", ignoreInvalidURLs: true } }));
    expect(codes(lenient, "warning")).toEqual(["invalid-url"]);
    expect(lenient.pipeline).toBeDefined();
  });
});

describe("crawl path regexes", () => {
  it("accepts valid regexes and rejects invalid ones with the reason", () => {
    expect(codes(load(withStep({ crawl: { url: "https://e.com", includePaths: ["^/blog/.*"], excludePaths: ["\\.pdf$"] } })))).toEqual([]);
    const bad = load(withStep({ crawl: { url: "https://e.com", excludePaths: ["ok", "(unclosed"] } }));
    expect(bad.diagnostics).toEqual([expect.objectContaining({ code: "invalid-regex", message: expect.stringContaining("excludePaths[1]") })]);
  });
});

describe("user JSON Schemas", () => {
  it("accepts a valid extraction schema", () => {
    const result = load(withStep({ extract: { urls: ["https://e.com"], schema: { type: "object", properties: { a: { type: "string" } } } } }));
    expect(codes(result)).toEqual([]);
  });

  it("rejects an invalid schema at the offending keyword", () => {
    const text = "version: 1\nname: t\nsteps:\n  - id: s\n    extract:\n      urls: [https://e.com]\n      schema:\n        type: object\n        properties:\n          a: { type: strng }\n";
    const result = load(text);
    expect(result.diagnostics).toEqual([expect.objectContaining({ code: "invalid-json-schema", line: 10 })]);
  });

  it("rejects a schema that does not compile (unresolvable $ref)", () => {
    const result = load(withStep({ extract: { urls: ["https://e.com"], schema: { $ref: "#/definitions/missing" } } }));
    expect(codes(result)).toEqual(["invalid-json-schema"]);
  });

  it("checks json format and v1 jsonOptions schemas too", () => {
    expect(codes(load(scrape({ formats: [{ type: "json", schema: { type: 7 } }] })))).toContain("invalid-json-schema");
    expect(codes(load(scrape({ formats: ["extract"], jsonOptions: { schema: { minimum: "x" } } })))).toContain("invalid-json-schema");
  });
});
