import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../src/core/index.js";
import { renderDiagnostics, renderLong, renderShort, summarize } from "../../src/pipeline/index.js";

const d: Diagnostic = { file: "p.yaml", line: 3, column: 7, length: 7, severity: "error", code: "unknown-key", message: 'unknown key "formatz"', hint: 'did you mean "formats"?' };
const source = new Map([["p.yaml", "steps:\n  - id: a\n      formatz: [markdown]\n"]]);

describe("render", () => {
  it("renders the long form with the source line and a caret under the culprit", () => {
    expect(renderLong(d, { sources: source })).toBe(
      ['error[unknown-key]: unknown key "formatz"', " --> p.yaml:3:7", "  |", "3 |       formatz: [markdown]", '  |       ^^^^^^^ did you mean "formats"?', ""].join("\n"),
    );
  });

  it("renders the short form on one line", () => {
    expect(renderShort(d)).toBe('p.yaml:3:7: error[unknown-key]: unknown key "formatz" (did you mean "formats"?)');
  });

  it("renders JSON with every field, hint null when absent", () => {
    const { hint: _hint, ...noHint } = d;
    const parsed = JSON.parse(renderDiagnostics([d, { ...noHint, severity: "warning" }], "json"));
    expect(parsed).toEqual([
      { file: "p.yaml", line: 3, column: 7, severity: "error", code: "unknown-key", message: 'unknown key "formatz"', hint: 'did you mean "formats"?' },
      { file: "p.yaml", line: 3, column: 7, severity: "warning", code: "unknown-key", message: 'unknown key "formatz"', hint: null },
    ]);
  });

  it("expands tabs and keeps the caret aligned", () => {
    const tabbed = new Map([["p.yaml", "\tkey: value\n"]]);
    const out = renderLong({ ...d, line: 1, column: 7, length: 5 }, { sources: tabbed });
    const lines = out.split("\n");
    expect(lines[3]).toBe("1 |     key: value");
    expect(lines[4]!.indexOf("^")).toBe(lines[3]!.indexOf("value"));
  });

  it("shortens very long lines around the caret", () => {
    const long = new Map([["p.yaml", `k: ${"x".repeat(5000)}BAD${"y".repeat(5000)}\n`]]);
    const out = renderLong({ ...d, line: 1, column: 5004, length: 3 }, { sources: long });
    const lines = out.split("\n");
    expect(lines[3]!.length).toBeLessThan(140);
    expect(lines[3]!.slice(lines[4]!.indexOf("^"), lines[4]!.indexOf("^") + 3)).toBe("BAD");
  });

  it("colours only when asked", () => {
    expect(renderLong(d, { sources: source, color: true })).toContain("\u001b[");
    expect(renderLong(d, { sources: source })).not.toContain("\u001b[");
  });

  it("summarizes counts", () => {
    expect(summarize([d, { ...d, severity: "warning" }, d])).toBe("2 errors and 1 warning");
  });
});
