/**
 * Expectations (`expect:` on a step or on the pipeline): what a run's results must look like for a
 * recipe to count as still working. Normalized from the file with the position of each key, judged
 * by src/expect over a finished step (or the whole run), and the verdict kept with the step.
 */

/** Where an expectation is written: 1-based line and column of its key in the pipeline file. */
export interface SourcePosition {
  line: number;
  column: number;
}

/** Bounds of a count of pages; `maxShare` is of the pages tried (stored and failed). */
export interface CountBounds {
  min?: number;
  max?: number;
  maxShare?: number;
}

export type CountName = "documents" | "failed" | "blocked" | "changed";
export type FieldType = "string" | "number" | "integer" | "boolean" | "object" | "array";

/** What every value at a field path must be. */
export interface FieldRule {
  required?: boolean;
  type?: FieldType;
  min?: number;
  max?: number;
  nonEmptyShare?: number;
}

/** One expectation, as written under `expect:` (one key of it). */
export type Expectation =
  | { kind: "count"; name: CountName; bounds: CountBounds; at: SourcePosition }
  | { kind: "field"; path: string; rule: FieldRule; at: SourcePosition }
  | { kind: "markdown"; minChars?: number; contains?: string[]; at: SourcePosition };

/** The judgement of one expectation. */
export interface ExpectationResult {
  /** The expectation's key: documents, failed, fields.products[].price, markdown. */
  name: string;
  at: SourcePosition;
  passed: boolean;
  /** What was seen, in words ("12 stored of 12 tried", "40 values: 3 missing"). */
  seen: string;
  /** Each rule it broke, with the values that broke it (empty when it passed). */
  problems: string[];
  /** The first pages that broke it (URLs), and how many did in all. */
  pages: string[];
  pagesTotal: number;
}

/** Every expectation of a step (or of the run) judged. */
export interface ExpectationVerdict {
  passed: boolean;
  results: ExpectationResult[];
}

/** Pages a broken expectation lists; the rest are only counted. */
export const EXPECTATION_PAGES_SHOWN = 5;

/** One stored page as expectations see it. */
export interface JudgedPage {
  url: string;
  json?: unknown;
  markdown?: string;
  changeStatus?: string;
}

/** What a finished step left, for its expectations. Pages are read once, in order. */
export interface StepFacts {
  documents: number;
  /** The step's failed pages; `blocked` when the site refused it (its failure class says blocked). */
  failures: ReadonlyArray<{ url: string; blocked: boolean }>;
  pages: Iterable<JudgedPage>;
  /** An extract step's merged data: its fields are judged instead of each page's json. */
  merged?: { data: unknown };
}

/** The whole run's totals, for the pipeline's expectations. */
export interface RunTotals {
  documents: number;
  failed: number;
  blocked: number;
  changed: number;
}

/** The judge (src/expect), handed to the runner as a port so the runner stays free of it. */
export interface ExpectationJudge {
  step(expectations: readonly Expectation[], facts: StepFacts): ExpectationVerdict;
  run(expectations: readonly Expectation[], totals: RunTotals): ExpectationVerdict;
}

/** A field path's parts: names, each maybe followed by `[]` (every item of a list). */
export type FieldPathPart = { name: string; each: boolean } | { name: null; each: true };

/**
 * Parses `products[].price` into its parts; a string describing the fault when it is not a path.
 * A path starts with a name (or `[]` for a list at the top), names joined by dots.
 */
export function parseFieldPath(path: string): FieldPathPart[] | string {
  if (path.length === 0) return "the path is empty";
  const parts: FieldPathPart[] = [];
  let rest = path;
  if (rest.startsWith("[]")) {
    parts.push({ name: null, each: true });
    rest = rest.slice(2);
    if (rest === "") return parts;
    if (!rest.startsWith(".")) return `expected "." after "[]" at character 3`;
    rest = rest.slice(1);
  }
  for (const segment of rest.split(".")) {
    const match = /^([^.[\]\s]+)(\[\])?$/.exec(segment);
    if (!match) {
      if (segment === "") return "a name is missing between dots (or at an end)";
      return `"${segment}" is not a name, or a name followed by [] (names have no spaces or brackets; [] takes every item of a list)`;
    }
    parts.push({ name: match[1]!, each: match[2] !== undefined });
  }
  return parts;
}

/** The key an expectation is shown by. */
export function expectationName(e: Expectation): string {
  if (e.kind === "count") return e.name;
  if (e.kind === "field") return `fields.${e.path}`;
  return "markdown";
}
