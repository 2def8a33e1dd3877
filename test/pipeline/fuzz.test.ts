import { readdirSync, readFileSync } from "node:fs";
import { stringify } from "yaml";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
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

/** What is wrong with a load result, as readable lines; empty when it is well formed. */
function malformations(result: LoadResult, text: string): string[] {
  const lineCount = text.split("\n").length;
  const wrong: string[] = [];
  for (const d of result.diagnostics) {
    const where = `${d.line}:${d.column} ${d.code}: ${d.message.slice(0, 200)}`;
    if (!/^[a-z][a-z-]*$/.test(d.code)) wrong.push(`code is not kebab-case: ${where}`);
    // "internal" and "too-complex" are the loader's last resort for an exception that escaped a check.
    if (d.code === "internal" || d.code === "too-complex") wrong.push(`an exception escaped a check: ${where}`);
    if (/call stack|\n\s+at |\.js:\d+/.test(d.message)) wrong.push(`message carries a stack: ${where}`);
    if (d.message.length === 0) wrong.push(`empty message: ${where}`);
    if (!(d.line >= 1 && d.line <= lineCount + 1)) wrong.push(`line outside the file (${lineCount} lines): ${where}`);
    if (!(d.column >= 1) || !(d.length >= 1)) wrong.push(`column or length below 1: ${where}`);
  }
  if (result.pipeline && !result.diagnostics.every((d) => d.severity === "warning")) wrong.push("a pipeline came with errors");
  if (!result.pipeline && !result.diagnostics.some((d) => d.severity === "error")) wrong.push("no pipeline and no error");
  return wrong;
}

function assertWellFormed(result: LoadResult, text: string) {
  expect(malformations(result, text)).toEqual([]);
}

/**
 * Whatever a file holds, the loader writes nothing to stderr: no library warning (the YAML library
 * reports through process.emitWarning, which prints later), nothing through console.
 */
let stderr: string[];
beforeEach(() => {
  stderr = [];
  const record = (...args: unknown[]) => void stderr.push(args.map(String).join(" "));
  vi.spyOn(process, "emitWarning").mockImplementation(record);
  vi.spyOn(console, "warn").mockImplementation(record);
  vi.spyOn(console, "error").mockImplementation(record);
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: unknown) => {
    record(chunk);
    return true;
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  expect(stderr).toEqual([]);
});

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

/** Largest random nesting the generators make; past MAX_DEPTH, and far past the composer's stack. */
const DEEP = [3, 40, 63, 64, 65, 66, 200, 600, 1000, 5000, 100_000];

/** Mutations that hostile or broken files bring: each returns the new text (or bytes). */
const HOSTILE: Array<(text: string, r: ReturnType<typeof rng>) => string | Uint8Array> = [
  // Deep nesting in a key, flow or explicit.
  (text, r) => {
    const n = r.pick(DEEP);
    const [open, close] = r.pick([["{", "}"], ["[", "]"]] as const);
    const key = r.int(2) === 0 ? `{${open.repeat(n)}${close.repeat(n)}: 1}` : `\n? ${open.repeat(n)}${close.repeat(n)}\n: 1\n`;
    return insertLine(text, r, `k: ${key}`);
  },
  // Deep nesting in a value: flow brackets, compact block lists, indentation.
  (text, r) => {
    const n = r.pick(DEEP);
    switch (r.int(4)) {
      case 0:
        return insertLine(text, r, `deep: ${"[".repeat(n)}${"]".repeat(n)}`);
      case 1:
        return insertLine(text, r, `deep: ${"{a: ".repeat(n)}1${"}".repeat(n)}`);
      case 2:
        return insertLine(text, r, `deep:\n  ${"- ".repeat(n)}x`);
      default:
        return `${text}\n${Array.from({ length: Math.min(n, 1400) }, (_, i) => `${" ".repeat(i)}k${i}:`).join("\n")} 1\n`;
    }
  },
  // Anchors and aliases: billion laughs, aliases as keys, aliases deep inside nesting.
  (text, r) => {
    const levels = 2 + r.int(10);
    const width = 2 + r.int(9);
    const lines = ["a0: &a0 [lol, lol]"];
    for (let i = 1; i < levels; i++) lines.push(`a${i}: &a${i} [${Array.from({ length: width }, () => `*a${i - 1}`).join(", ")}]`);
    switch (r.int(3)) {
      case 0:
        return `${text}\n${lines.join("\n")}\n`;
      case 1:
        return `${text}\n${lines.join("\n")}\n{ *a${levels - 1} : 1 }: 2\n*a0 : 3\n`;
      default: {
        const n = r.pick(DEEP.filter((d) => d < 1000));
        return `${text}\n${lines.join("\n")}\nb: ${"[".repeat(n)}*a${levels - 1}${"]".repeat(n)}\n`;
      }
    }
  },
  // Duplicate keys: a line repeated at its own indentation, or many copies of one.
  (text, r) => {
    const lines = text.split("\n");
    const at = r.int(lines.length);
    const copies = r.pick([1, 2, 1000]);
    lines.splice(at, 0, ...Array.from({ length: copies }, () => lines[at]!));
    return lines.join("\n");
  },
  // Tabs: in indentation, after a colon, inside flow collections.
  (text, r) => {
    const lines = text.split("\n");
    for (let i = 0; i < 1 + r.int(4); i++) {
      const j = r.int(lines.length);
      lines[j] = r.pick([(l: string) => l.replace(/^ +/, "\t"), (l: string) => l.replace(": ", ":\t"), (l: string) => `\t${l}`])(lines[j]!);
    }
    return lines.join("\n");
  },
  // Binary: random bytes spliced in, or a NUL, or a broken UTF-8 sequence.
  (text, r) => {
    const bytes = Buffer.from(text, "utf8");
    const at = r.int(bytes.length + 1);
    const junk = r.pick([Uint8Array.from({ length: 1 + r.int(64) }, () => r.int(256)), Uint8Array.of(0), Uint8Array.of(0xc3, 0x28), Uint8Array.of(0xef, 0xbb, 0xbf)]);
    return Buffer.concat([bytes.subarray(0, at), junk, bytes.subarray(at)]);
  },
  // Huge scalars: plain, quoted, block, as a key, as many `${` references.
  (text, r) => {
    const n = r.pick([10_000, 100_000, 400_000]);
    switch (r.int(5)) {
      case 0:
        return insertLine(text, r, `big: ${"x".repeat(n)}`);
      case 1:
        return insertLine(text, r, `big: "${"\\\\".repeat(n / 2)}"`);
      case 2:
        return `${text}\nbig: |\n${"  line of text\n".repeat(n / 14)}`;
      case 3:
        return insertLine(text, r, `${"k".repeat(n)}: 1`);
      default:
        return insertLine(text, r, `big: "${"${X}".repeat(n / 4)}"`);
    }
  },
  // Truncation anywhere, including inside a multi-byte character.
  (text, r) => {
    const bytes = Buffer.from(text, "utf8");
    return bytes.subarray(0, r.int(bytes.length + 1));
  },
];

function insertLine(text: string, r: ReturnType<typeof rng>, line: string): string {
  const lines = text.split("\n");
  lines.splice(r.int(lines.length + 1), 0, line);
  return lines.join("\n");
}

/** CPU time of this process in milliseconds: unlike the clock, it does not count time others had the machine. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** A guard against hangs and blow-ups, not a measurement: a file that takes this long is a bug. */
const PER_FILE_MS = 2000;

describe("loader fuzzing with hostile files", () => {
  it("every hostile file gets placed diagnostics or a pipeline, quickly, and nothing escapes", () => {
    const r = rng(20261125);
    const tally = new Map<string, number>();
    for (let i = 0; i < 2000; i++) {
      const mutation = r.int(HOSTILE.length);
      let input: string | Uint8Array = r.pick(seeds);
      // Mostly one hostile change, sometimes two, sometimes mixed with the ordinary mutations.
      for (let k = 0; k < 1 + (r.int(4) === 0 ? 1 : 0); k++) {
        const text = typeof input === "string" ? input : Buffer.from(input).toString("latin1");
        input = HOSTILE[k === 0 ? mutation : r.int(HOSTILE.length)]!(r.int(3) === 0 ? mutate(text, r) : text, r);
      }
      const bytes = typeof input === "string" ? Buffer.from(input, "utf8") : input;
      const started = cpuMs();
      const result = loadPipelineBytes("fuzz.yaml", bytes, { env: { X: "1" } });
      const spent = cpuMs() - started;
      const label = `file ${i} (mutation ${mutation}, ${bytes.length} bytes)`;
      if (spent >= PER_FILE_MS) expect.fail(`${label} took ${spent.toFixed(0)} ms of CPU`);
      const wrong = malformations(result, Buffer.from(bytes).toString("utf8"));
      if (wrong.length > 0) expect.fail(`${label}:\n${wrong.slice(0, 5).join("\n")}`);
      for (const d of result.diagnostics) tally.set(d.code, (tally.get(d.code) ?? 0) + 1);
    }
    // The generators reach what they are meant to reach.
    for (const code of ["too-deep", "complex-key", "alias-bomb", "duplicate-key", "tab-indent", "not-text", "yaml-syntax", "file-too-large"]) {
      expect(tally.get(code) ?? 0, code).toBeGreaterThan(0);
    }
  }, 120_000); // many large files: a generous timeout for a loaded machine; the per-file guard is above
});
