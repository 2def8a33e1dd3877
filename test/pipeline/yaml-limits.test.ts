import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { loadPipelineText } from "../../src/pipeline/index.js";
import { MAX_DEPTH } from "../../src/pipeline/yaml/yaml-doc.js";

const PIPELINE = "version: 1\nname: p\nsteps:\n  - id: a\n    scrape:\n      url: https://example.com\n";

function load(text: string) {
  const result = loadPipelineText("p.yaml", text);
  for (const d of result.diagnostics) {
    expect(d.message).not.toMatch(/call stack|stringified/);
    expect(d.code).not.toMatch(/^(internal|too-complex)$/);
  }
  return result;
}

const codes = (text: string) => load(text).diagnostics.map((d) => d.code);
const at = (text: string, code: string) => load(text).diagnostics.find((d) => d.code === code);

let warnings: unknown[];
beforeEach(() => {
  warnings = [];
  vi.spyOn(process, "emitWarning").mockImplementation((warning: unknown) => void warnings.push(warning));
});
afterEach(() => {
  vi.restoreAllMocks();
  // The YAML library reports through process.emitWarning, which prints to stderr.
  expect(warnings).toEqual([]);
});

describe("keys that are mappings, lists or aliases of them", () => {
  it("refuses a flow mapping nested in a key at the key's position, without a library warning", () => {
    const depth = 30;
    const text = `x: ${"{".repeat(depth)}${"}".repeat(depth)}\n`;
    const result = load(text);
    expect(result.pipeline).toBeUndefined();
    expect(result.diagnostics).toContainEqual(expect.objectContaining({ code: "complex-key", line: 1, column: 5, severity: "error", message: "a key must be a name, not a mapping" }));
  });

  it("refuses mappings nested 600 deep in keys as too deep, without stringifying them", () => {
    const text = `x: ${"{".repeat(600)}${"}".repeat(600)}\n`;
    expect(at(text, "too-deep")).toMatchObject({ line: 1, severity: "error" });
  });

  it("refuses a flow list as a key", () => {
    expect(at("x: {[a, b]: 1}\n", "complex-key")).toMatchObject({ line: 1, column: 5, message: "a key must be a name, not a list" });
  });

  it("refuses a `? ` complex key that is a list or a mapping", () => {
    expect(at(`${PIPELINE}? [a, b]\n: 1\n`, "complex-key")).toMatchObject({ line: 7, column: 3 });
    expect(at(`${PIPELINE}? a: 1\n  b: 2\n: 1\n`, "complex-key")).toMatchObject({ line: 7, column: 3 });
  });

  it("accepts a `? ` key that is a plain name", () => {
    expect(codes(`version: 1\n? name\n: p\nsteps:\n  - id: a\n    scrape:\n      url: https://example.com\n`)).toEqual([]);
  });

  it("refuses an alias of a mapping used as a key, but not an alias of a name", () => {
    expect(at("a: &k {b: 1}\n*k : 2\n", "complex-key")).toMatchObject({ line: 2, column: 1, message: "a key must be a name, not an alias of a mapping or list (*k)" });
    expect(codes("version: 1\nname: &n p\nlabel: { *n : 1 }\nsteps: []\n")).not.toContain("complex-key");
  });

  it("reports one diagnostic for a structured key, not one per level inside it", () => {
    expect(codes("x: {{{{a: 1}: 2}: 3}: 4}\n").filter((c) => c === "complex-key")).toHaveLength(1);
  });
});

describe("nesting depth", () => {
  const cases: Array<[string, (n: number) => string]> = [
    ["flow lists in values", (n) => `x: ${"[".repeat(n)}${"]".repeat(n)}\n`],
    ["flow mappings in values", (n) => `x: ${"{a: ".repeat(n)}1${"}".repeat(n)}\n`],
    ["flow mappings in keys", (n) => `x: ${"{".repeat(n)}${"}".repeat(n)}\n`],
    ["flow lists in keys", (n) => `x: {${"[".repeat(n)}${"]".repeat(n)}: 1}\n`],
    ["compact block lists", (n) => `x:\n  ${"- ".repeat(n)}1\n`],
    ["compact `? ` keys", (n) => `${"? ".repeat(n)}1\n`],
  ];
  for (const [name, make] of cases) {
    it(`refuses ${name} nested ${MAX_DEPTH + 1}, 1000 and 100000 deep as too-deep, with a position`, () => {
      for (const depth of [MAX_DEPTH + 1, 1000, 100_000]) {
        const found = at(make(depth), "too-deep");
        expect(found, `${name} at depth ${depth}`).toMatchObject({ severity: "error", message: `values are nested more than ${MAX_DEPTH} levels deep` });
        expect(found!.line).toBeLessThanOrEqual(2);
        expect(found!.column).toBeGreaterThan(1);
      }
    });
  }

  it("refuses block indentation nested far past the limit", () => {
    const text = Array.from({ length: 1400 }, (_, i) => `${" ".repeat(i)}k:`).join("\n") + " 1\n";
    expect(codes(text)).toContain("too-deep");
  });

  it("counts depth through what an alias expands to", () => {
    const half = MAX_DEPTH / 2 + 2;
    const text = `a: &a ${"[".repeat(half)}${"]".repeat(half)}\nb: ${"[".repeat(half)}*a${"]".repeat(half)}\n`;
    expect(at(text, "too-deep")).toMatchObject({ line: 2, column: 4 + half, message: `values are nested more than ${MAX_DEPTH} levels deep once this alias is expanded` });
  });

  it("places a too-deep finding on the right line when the file stops being read early", () => {
    const text = `${PIPELINE}deep: ${"[".repeat(100_000)}\n`;
    expect(at(text, "too-deep")).toMatchObject({ line: 7 });
  });

  it("reports many unclosed brackets as syntax errors, not as nesting", () => {
    const text = Array.from({ length: MAX_DEPTH + 10 }, (_, i) => `k${i}: [a`).join("\n") + "\n";
    expect(codes(text)).toContain("yaml-syntax");
    expect(codes(text)).not.toContain("too-deep");
  });

  it("accepts a pipeline within the limit", () => {
    expect(codes(PIPELINE)).toEqual([]);
  });
});

describe("through the built CLI", () => {
  it("validate answers deep and structured keys with positioned diagnostics, exit 2 and a quiet stderr", () => {
    const cli = "dist/cli/main.js";
    expect(existsSync(cli), "run `npm run build` first").toBe(true);
    const dir = mkdtempSync(join(tmpdir(), "scrapeline-limits-"));
    const deep = join(dir, "deep-key.yaml");
    writeFileSync(deep, `${PIPELINE}x: ${"{".repeat(1000)}${"}".repeat(1000)}\n`);
    const structured = join(dir, "structured-key.yaml");
    writeFileSync(structured, `${PIPELINE}x: {{a: 1}: 2}\n`);
    // The timeout only guards against a hang; a run that reaches it fails below.
    const r = spawnSync(process.execPath, [cli, "validate", deep, structured, "--format", "short"], { encoding: "utf8", timeout: 20_000 });
    expect(r.error).toBeUndefined();
    expect(r.status).toBe(2);
    expect(r.stdout).toContain(`${deep}:7:${4 + MAX_DEPTH - 1}: error[too-deep]: values are nested more than ${MAX_DEPTH} levels deep`);
    expect(r.stdout).toContain(`${structured}:7:5: error[complex-key]: a key must be a name, not a mapping`);
    expect(r.stderr).not.toMatch(/Warning|stringified|call stack/);
  });
});
