import { describe, expect, it } from "vitest";
import { load } from "./helpers.js";

const base = (stepExpect: string, top = "") => `version: 1
name: t
${top}steps:
  - id: products
    scrape: { url: "https://example.com/" }
    expect:
${stepExpect}`;

describe("expect: in a pipeline file", () => {
  it("normalizes each expectation with the position of its key", () => {
    const result = load(base(`      documents: { min: 20 }
      failed: { maxShare: 0.05 }
      fields:
        products[].price: { required: true, type: number, min: 0 }
      markdown: { minChars: 200, contains: ["Add to cart"] }
`, "expect:\n  changed: { maxShare: 0.3 }\n"));
    expect(result.diagnostics).toEqual([]);
    const step = result.pipeline!.steps[0]!;
    expect(step.at).toEqual({ line: 6, column: 5 });
    expect(step.expect).toEqual([
      { kind: "count", name: "documents", bounds: { min: 20 }, at: { line: 9, column: 7 } },
      { kind: "count", name: "failed", bounds: { maxShare: 0.05 }, at: { line: 10, column: 7 } },
      { kind: "field", path: "products[].price", rule: { required: true, type: "number", min: 0 }, at: { line: 12, column: 9 } },
      { kind: "markdown", minChars: 200, contains: ["Add to cart"], at: { line: 13, column: 7 } },
    ]);
    expect(result.pipeline!.expect).toEqual([{ kind: "count", name: "changed", bounds: { maxShare: 0.3 }, at: { line: 4, column: 3 } }]);
  });

  it("reports every problem at once, each at its place, with did-you-mean", () => {
    const result = load(base(`      documnets: { min: 1 }
      failed: { max: 2, min: 5 }
      fields:
        "products[0].price": { required: true }
        name: { type: text }
`, "expect:\n  fields: { a: { required: true } }\n"));
    const errors = result.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.line}:${d.column} ${d.code}: ${d.message}${d.hint ? ` (${d.hint})` : ""}`);
    expect(errors).toEqual([
      expect.stringMatching(/^4:3 unknown-key: .*"fields"/),
      expect.stringMatching(/^9:7 unknown-key: .*"documnets".*did you mean "documents"/),
      expect.stringMatching(/^10:30 empty-range: expect\.failed: min 5 is above max 2/),
      expect.stringMatching(/^12:9 bad-field-path: "products\[0\]\.price" is not a field path/),
      expect.stringMatching(/^13:23 invalid-value: .*"text".*expected string, number, integer, boolean, object or array/),
    ]);
    expect(result.pipeline).toBeUndefined();
  });
});
