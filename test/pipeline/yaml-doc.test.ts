import { describe, expect, it } from "vitest";
import { locate, MAX_DEPTH, parseYaml, spanAt, toData } from "../../src/pipeline/yaml/yaml-doc.js";

function parsed(text: string) {
  const result = parseYaml("p.yaml", text);
  if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
  return result.source;
}

describe("parseYaml", () => {
  it("reports an empty file and a comments-only file", () => {
    for (const text of ["", "# nothing here\n\n"]) {
      const result = parseYaml("p.yaml", text);
      expect(!result.ok && result.diagnostics[0]).toMatchObject({ code: "empty-file", line: 1, column: 1 });
    }
  });

  it("reports duplicate keys at the second key", () => {
    const result = parseYaml("p.yaml", "name: a\nversion: 1\nname: b\n");
    expect(!result.ok && result.diagnostics).toEqual([expect.objectContaining({ code: "duplicate-key", line: 3, column: 1, severity: "error" })]);
  });

  it("reports tab indentation", () => {
    const result = parseYaml("p.yaml", "steps:\n\t- id: a\n");
    expect(!result.ok && result.diagnostics.map((d) => [d.code, d.line])).toContainEqual(["tab-indent", 2]);
  });

  it("reports syntax errors with a position and no stack", () => {
    const result = parseYaml("p.yaml", "a: [1, 2\nb: 3\n");
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.diagnostics[0]?.code).toBe("yaml-syntax");
      expect(result.diagnostics[0]?.message).not.toMatch(/\n|at .*\.js/);
    }
  });

  it("refuses more than one document", () => {
    const result = parseYaml("p.yaml", "a: 1\n---\nb: 2\n");
    expect(!result.ok && result.diagnostics[0]).toMatchObject({ code: "multiple-documents", line: 2 });
  });

  it("refuses nesting deeper than the limit, block or flow", () => {
    const flow = `a: ${"[".repeat(MAX_DEPTH + 5)}${"]".repeat(MAX_DEPTH + 5)}\n`;
    const block = Array.from({ length: MAX_DEPTH + 5 }, (_, i) => `${"  ".repeat(i)}k${i}:`).join("\n") + " 1\n";
    for (const text of [flow, block]) {
      const result = parseYaml("p.yaml", text);
      expect(!result.ok && result.diagnostics[0]?.code).toBe("too-deep");
    }
  });

  it("accepts nesting within the limit", () => {
    const text = `a: ${"[".repeat(MAX_DEPTH - 2)}${"]".repeat(MAX_DEPTH - 2)}\n`;
    expect(parseYaml("p.yaml", text).ok).toBe(true);
  });
});

describe("toData", () => {
  it("expands ordinary aliases", () => {
    const data = toData(parsed("base: &b { x: 1 }\nuse: *b\n"));
    expect(data).toEqual({ ok: true, data: { base: { x: 1 }, use: { x: 1 } } });
  });

  it("refuses a billion-laughs alias bomb and points at the first alias", () => {
    const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      lines.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(",")}]`);
    }
    const result = toData(parsed(`${lines.join("\n")}\n`));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.diagnostic).toMatchObject({ code: "alias-bomb", line: 2 });
  });
});

describe("locate and spanAt", () => {
  const source = parsed("name: demo\nsteps:\n  - id: one\n    scrape:\n      url: https://a.example\n");

  it("finds values and keys by path", () => {
    expect(spanAt(source, ["steps", 0, "scrape", "url"])).toEqual({ line: 5, column: 12, length: 17 });
    expect(spanAt(source, ["steps", 0, "scrape", "url"], "key")).toEqual({ line: 5, column: 7, length: 3 });
  });

  it("falls back to the nearest existing node for a missing path", () => {
    const found = locate(source, ["steps", 0, "scrape", "formats"]);
    expect(found.node).toBeUndefined();
    // Pointing at the parent key tells the reader where the missing key belongs.
    expect(spanAt(source, ["steps", 0, "scrape", "formats"])).toEqual({ line: 4, column: 5, length: 6 });
  });

  it("clips the caret to the first line of a multi-line value", () => {
    const multi = parsed("a:\n  - 1\n  - 2\n");
    expect(spanAt(multi, ["a"])).toEqual({ line: 2, column: 3, length: 3 });
  });
});
