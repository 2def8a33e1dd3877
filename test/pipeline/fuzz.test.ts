import { readdirSync, readFileSync } from "node:fs";
import { stringify } from "yaml";
import { describe, expect, it } from "vitest";
import type { LoadResult } from "../../src/pipeline/index.js";
import { loadPipelineBytes, loadPipelineText } from "../../src/pipeline/index.js";

/** A small seeded PRNG (mulberry32), so every run fuzzes the same inputs and failures reproduce. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  return { next, int, pick };
}

const seeds = [
  ...readdirSync("pipelines").map((f) => readFileSync(`pipelines/${f}`, "utf8")),
  ...readdirSync("test/fixtures/diagnostics").filter((f) => f.endsWith(".yaml")).map((f) => readFileSync(`test/fixtures/diagnostics/${f}`, "latin1")),
];
const TOKENS = [":", "-", " ", "\n", "\t", "[", "]", "{", "}", ",", "&a", "*a", "!!str", "|", ">", "#", "'", '"', "${X}", "${", "~", "null", "1e999", "0x1f", "🎉", "\u0000", "\r\n", "---", "...", "? ", "<<: *a"];
const KEYS = ["version", "name", "steps", "id", "scrape", "crawl", "map", "extract", "url", "urls", "formats", "actions", "type", "needs", "from", "schema", "defaults", "scrapeOptions", "engine", "limit", "waitFor", "timeout"];

function mutate(text: string, r: ReturnType<typeof rng>): string {
  let out = text;
  const edits = 1 + r.int(6);
  for (let i = 0; i < edits; i++) {
    const at = r.int(out.length + 1);
    switch (r.int(5)) {
      case 0: // delete a run
        out = out.slice(0, at) + out.slice(at + 1 + r.int(20));
        break;
      case 1: // insert a YAML-significant token
        out = out.slice(0, at) + r.pick(TOKENS) + out.slice(at);
        break;
      case 2: {
        // duplicate a line elsewhere
        const lines = out.split("\n");
        lines.splice(r.int(lines.length + 1), 0, r.pick(lines));
        out = lines.join("\n");
        break;
      }
      case 3: // replace a character with a random code point
        out = out.slice(0, at) + String.fromCodePoint(r.int(0x2fff)) + out.slice(at + 1);
        break;
      default: // swap a key for another
        out = out.replace(r.pick(KEYS), r.pick(KEYS));
    }
  }
  return out;
}

function randomValue(r: ReturnType<typeof rng>, depth: number): unknown {
  const kind = depth > 4 ? r.int(4) : r.int(7);
  switch (kind) {
    case 0:
      return r.pick(["markdown", "https://example.com", "", "x".repeat(r.int(50)), "${HOME}", "scrape"]);
    case 1:
      return r.pick([0, -1, 1, 1.5, 1e9, 100, 30000]);
    case 2:
      return r.pick([true, false, null]);
    case 3:
      return r.pick(KEYS);
    case 4:
    case 5:
      return Object.fromEntries(Array.from({ length: r.int(5) }, () => [r.pick(KEYS), randomValue(r, depth + 1)]));
    default:
      return Array.from({ length: r.int(4) }, () => randomValue(r, depth + 1));
  }
}

function assertWellFormed(result: LoadResult, text: string) {
  const lineCount = text.split("\n").length;
  for (const d of result.diagnostics) {
    expect(d.code).toMatch(/^[a-z][a-z-]*$/);
    expect(d.code).not.toBe("internal");
    expect(d.message.length).toBeGreaterThan(0);
    expect(d.line).toBeGreaterThanOrEqual(1);
    expect(d.line).toBeLessThanOrEqual(lineCount + 1);
    expect(d.column).toBeGreaterThanOrEqual(1);
    expect(d.length).toBeGreaterThanOrEqual(1);
  }
  if (result.pipeline) expect(result.diagnostics.every((d) => d.severity === "warning")).toBe(true);
  else expect(result.diagnostics.some((d) => d.severity === "error")).toBe(true);
}

describe("loader fuzzing", () => {
  it("mutated real pipelines never throw and always get placed diagnostics", () => {
    const r = rng(20261122);
    for (let i = 0; i < 1500; i++) {
      const text = mutate(r.pick(seeds), r);
      assertWellFormed(loadPipelineText("fuzz.yaml", text, { env: { X: "1" } }), text);
    }
  });

  it("random structures never throw", () => {
    const r = rng(7);
    for (let i = 0; i < 800; i++) {
      const value = r.int(3) === 0 ? randomValue(r, 0) : { version: 1, name: "f", steps: [randomValue(r, 1), { id: "a", [r.pick(["scrape", "crawl", "map", "extract"])]: randomValue(r, 2) }] };
      const text = stringify(value);
      assertWellFormed(loadPipelineText("fuzz.yaml", text), text);
    }
  });

  it("random bytes never throw", () => {
    const r = rng(99);
    for (let i = 0; i < 300; i++) {
      const bytes = Uint8Array.from({ length: r.int(400) }, () => r.int(256));
      const result = loadPipelineBytes("fuzz.yaml", bytes);
      expect(result.pipeline).toBeUndefined();
      expect(result.diagnostics.length).toBeGreaterThan(0);
    }
  });

  it("a large pipeline near the size cap is checked, not crashed on", () => {
    const steps = Array.from({ length: 3000 }, (_, i) => `  - id: s${i}\n    scrape:\n      url: https://example.com/${i}\n      formats: [markdown, links]\n`).join("");
    const text = `version: 1\nname: big\nsteps:\n${steps}`;
    const result = loadPipelineText("big.yaml", text);
    expect(result.diagnostics).toEqual([]);
    expect(result.pipeline?.steps).toHaveLength(3000);
  });
});
