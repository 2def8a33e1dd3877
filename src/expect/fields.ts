import type { ExpectationResult, FieldPathPart, FieldRule, SourcePosition } from "../core/index.js";
import { EXPECTATION_PAGES_SHOWN, parseFieldPath } from "../core/index.js";
import { percent } from "./counts.js";

const SAMPLES = 5;

/** The values at a path of one JSON value: one per item where the path says `[]`; undefined where missing. */
export function valuesAt(value: unknown, parts: readonly FieldPathPart[]): unknown[] {
  let current: unknown[] = [value];
  for (const part of parts) {
    const next: unknown[] = [];
    for (const v of current) {
      const child = part.name === null ? v : isPlainObject(v) ? v[part.name] : undefined;
      if (!part.each) next.push(child);
      else if (Array.isArray(child)) next.push(...child);
      else next.push(undefined);
    }
    current = next;
  }
  return current;
}

/** A tally of one field expectation over the pages it is fed; `result()` gives its judgement. */
export class FieldTally {
  private readonly parts: FieldPathPart[];
  private values = 0;
  private nonEmpty = 0;
  private readonly broken = new Map<string, { count: number; samples: string[] }>();
  private readonly pages: string[] = [];
  private pagesTotal = 0;

  constructor(
    private readonly path: string,
    private readonly rule: FieldRule,
    private readonly at: SourcePosition,
  ) {
    const parts = parseFieldPath(path);
    // Paths are checked when the file loads; an unreadable one matches nothing.
    this.parts = typeof parts === "string" ? [] : parts;
  }

  add(url: string | undefined, json: unknown): void {
    let pageBroken = false;
    for (const value of valuesAt(json, this.parts)) {
      this.values++;
      if (!isEmpty(value)) this.nonEmpty++;
      for (const problem of this.problemsOf(value)) {
        const entry = this.broken.get(problem) ?? { count: 0, samples: [] };
        entry.count++;
        if (entry.samples.length < SAMPLES) entry.samples.push(show(value));
        this.broken.set(problem, entry);
        pageBroken = true;
      }
    }
    if (pageBroken && url !== undefined) {
      this.pagesTotal++;
      if (this.pages.length < EXPECTATION_PAGES_SHOWN) this.pages.push(url);
    }
  }

  result(): ExpectationResult {
    const problems = [...this.broken].map(([problem, { count, samples }]) => {
      const seen = problem === "missing" ? "" : ` (seen: ${samples.join(", ")}${count > samples.length ? ", …" : ""})`;
      return `${count} of ${this.values} value${this.values === 1 ? "" : "s"} ${problem}${seen}`;
    });
    if (this.rule.required && this.values === 0) problems.push("no value at this path");
    const share = this.values === 0 ? 0 : this.nonEmpty / this.values;
    if (this.rule.nonEmptyShare !== undefined && share < this.rule.nonEmptyShare) {
      problems.push(`${percent(share)} of values are present and not empty (${this.nonEmpty} of ${this.values}), expected at least ${percent(this.rule.nonEmptyShare)}`);
    }
    const passed = problems.length === 0;
    return {
      name: `fields.${this.path}`,
      at: this.at,
      passed,
      seen: `${this.values} value${this.values === 1 ? "" : "s"}, ${this.nonEmpty} not empty`,
      problems,
      pages: passed ? [] : this.pages,
      pagesTotal: passed ? 0 : this.pagesTotal,
    };
  }

  private problemsOf(value: unknown): string[] {
    const { rule } = this;
    const out: string[] = [];
    const present = value !== undefined && value !== null;
    if (!present) {
      if (rule.required) out.push("missing");
      return out;
    }
    if (rule.type !== undefined && !hasType(value, rule.type)) out.push(`not of type ${rule.type}`);
    if (typeof value === "number") {
      if (rule.min !== undefined && value < rule.min) out.push(`below min ${rule.min}`);
      if (rule.max !== undefined && value > rule.max) out.push(`above max ${rule.max}`);
    }
    return out;
  }
}

function hasType(value: unknown, type: NonNullable<FieldRule["type"]>): boolean {
  switch (type) {
    case "array":
      return Array.isArray(value);
    case "object":
      return isPlainObject(value);
    case "integer":
      return Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    default:
      return typeof value === type;
  }
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === "string") return value.trim() === "";
  if (Array.isArray(value)) return value.length === 0;
  if (isPlainObject(value)) return Object.keys(value).length === 0;
  return false;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A value as a problem quotes it: JSON, cut short. */
function show(value: unknown): string {
  const text = value === undefined ? "missing" : JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}
