import type { ErrorObject } from "ajv";
import type { Diagnostic, ValidationIssue } from "../core/index.js";
import { bundledSchemas, discriminatorKey } from "./schema.js";
import { closest, didYouMean, listOf } from "./suggest.js";
import { clientKeyHint } from "./client-keys.js";
import { describePath, fieldIn, STEP_KINDS } from "./yaml/index.js";
import { parseKeyProblem } from "./step-kinds/index.js";
import { spanAt, type Path, type SourceDoc } from "./yaml/index.js";

/** What to do with a URL that is not absolute ("example.com"): said by validate and by every command given one. */
export const ABSOLUTE_URL_HINT = "write the full URL, e.g. https://example.com/page";

type SchemaError = ErrorObject & { parentSchema?: Record<string, unknown>; schema?: unknown; data?: unknown };

/** Turns ajv's raw errors into one diagnostic per real problem, each at its place in the file. */
export function schemaDiagnostics(source: SourceDoc, data: unknown, errors: readonly ErrorObject[]): Diagnostic[] {
  const all = errors.map((e) => ({ error: e as SchemaError, path: toPath(e.instancePath, data), dropped: false }));
  type Entry = (typeof all)[number];
  const out: Diagnostic[] = [];
  /** `issue`: the finding in the service's validation shape (path defaults to the finding's, message to its own). */
  const emit = (path: Path, prefer: "key" | "value", code: string, message: string, hint?: string, issue: IssueFields = { code: "custom" }) => {
    const d: Diagnostic = { file: source.file, ...spanAt(source, path, prefer), severity: "error", code, message };
    if (hint) d.hint = hint;
    d.issue = { path: [...path], message: hint ? `${message} (${hint})` : message, ...issue };
    out.push(d);
  };

  // Alternatives (oneOf / anyOf): keep the errors of the branches that fit the value's type,
  // and explain the alternative itself only when no branch says anything more precise.
  const compounds = all.filter((e) => e.error.keyword === "oneOf" || e.error.keyword === "anyOf");
  for (const compound of compounds.sort((a, b) => b.path.length - a.path.length)) {
    const pointer = compound.error.instancePath;
    const value = compound.error.data;
    const actual = jsonType(value);
    const branches = Array.isArray(compound.error.schema) ? (compound.error.schema as Record<string, unknown>[]) : [];
    const requiredOnly = branches.length > 0 && branches.every(isRequiredOnly);
    const inside = all.filter((e) => e !== compound && !e.dropped && within(e.error.instancePath, pointer));
    if (requiredOnly) {
      const keys = branches.flatMap((b) => b.required as string[]);
      for (const e of inside) {
        if (e.error.instancePath === pointer && e.error.keyword === "required" && keys.includes(String(e.error.params.missingProperty))) e.dropped = true;
      }
      compound.dropped = true;
      if (isStepPath(compound.path) && keys.every((k) => (STEP_KINDS as readonly string[]).includes(k))) {
        stepKindProblem(compound, inside, value, keys);
        continue;
      }
      const present = keys.filter((k) => isObject(value) && k in value);
      if (present.length > 1) emit(compound.path, "value", "conflicting-keys", `${listOf(present.map(q), "and")} cannot be used together in ${fieldIn(compound.path, data)}`, `keep one of them`);
      else emit(compound.path, "key", "missing-key", `${fieldIn(compound.path, data)} needs ${listOf(keys.map(q))}`, undefined, { code: "invalid_type", path: [...compound.path, keys[0]!], expected: declaredType(compound.error.parentSchema, keys[0]!), received: "undefined" });
      continue;
    }
    for (const e of inside) {
      if (e.error.instancePath === pointer) {
        const declared = e.error.parentSchema?.type;
        if (declared !== undefined && !typeAccepts(declared, actual)) e.dropped = true;
      } else if (actual !== "object" && actual !== "array") {
        e.dropped = true;
      }
    }
    const explained = inside.some((e) => !e.dropped);
    compound.dropped = true;
    if (explained) continue;
    if (Array.isArray(compound.error.params.passingSchemas)) {
      emit(compound.path, "value", "ambiguous-value", `${fieldIn(compound.path, data)} matches more than one of its allowed forms`);
    } else {
      const expected = [...new Set(branches.map((b) => branchType(b)).filter((t): t is string => !!t))];
      emit(compound.path, "value", "wrong-type", `${fieldIn(compound.path, data)} must be ${expected.length ? listOf(expected.map(article)) : "of another form"}, found ${article(actual)}`);
    }
  }

  function stepKindProblem(compound: Entry, inside: Entry[], value: unknown, kinds: string[]) {
    const present = kinds.filter((k) => isObject(value) && k in value);
    if (present.length > 1) {
      emit(compound.path, "value", "conflicting-keys", `${fieldIn(compound.path, data)} has ${listOf(present.map(q), "and")}: a step does exactly one thing`, "split it into one step per kind");
      return;
    }
    const unknown = inside.filter((e) => !e.dropped && e.error.keyword === "additionalProperties" && e.error.instancePath === compound.error.instancePath);
    const name = (e: Entry) => String(e.error.params.additionalProperty);
    const guess = unknown.find((e) => closest(name(e), kinds)) ?? (present.length === 0 ? unknown[0] : undefined);
    if (guess) {
      guess.dropped = true;
      const hint = didYouMean(name(guess), kinds) ?? `a step kind is one of ${listOf(kinds)}`;
      emit([...guess.path, name(guess)], "key", "unknown-step-kind", `unknown step kind "${name(guess)}"`, hint);
      return;
    }
    if (present.length === 0) emit(compound.path, "value", "missing-step-kind", `${fieldIn(compound.path, data)} has no kind`, `add one of ${listOf(kinds)}`);
  }

  for (const entry of all) {
    if (entry.dropped) continue;
    const { error, path } = entry;
    const what = fieldIn(path, data);
    const p = error.params as Record<string, unknown>;
    switch (error.keyword) {
      case "additionalProperties": {
        const key = String(p.additionalProperty);
        const known = Object.keys((error.parentSchema?.properties as object | undefined) ?? {});
        const { where, field } = describePath(path, data);
        const browser = parseKeyProblem(path, key);
        if (browser) {
          emit([...path, key], "key", browser.code, browser.message, browser.hint);
          break;
        }
        emit([...path, key], "key", "unknown-key", `unknown key "${key}" in ${field ? `${field} of ` : ""}${where}`, clientKeyHint(key) ?? didYouMean(key, known) ?? (known.length ? `allowed keys: ${listOf(known)}` : undefined), { code: "unrecognized_keys", keys: [key], path: [...path] });
        break;
      }
      case "required":
        emit(path, "key", "missing-key", `missing required key "${p.missingProperty}" in ${what}`, undefined, { code: "invalid_type", path: [...path, String(p.missingProperty)], expected: declaredType(error.parentSchema, String(p.missingProperty)), received: "undefined" });
        break;
      case "enum": {
        const allowed = p.allowedValues as unknown[];
        const shown = JSON.stringify(error.data);
        const hint = typeof error.data === "string" ? didYouMean(error.data, allowed.map(String)) : undefined;
        emit(path, "value", "invalid-value", `invalid value ${shown} for ${what}`, hint ?? `expected ${listOf(allowed)}`, { code: "invalid_enum_value", options: allowed, received: String(error.data) });
        break;
      }
      case "const":
        emit(path, "value", "invalid-value", `${what} must be ${JSON.stringify(p.allowedValue)}, found ${JSON.stringify(error.data)}`, undefined, { code: "invalid_literal", expected: JSON.stringify(p.allowedValue), received: JSON.stringify(error.data) });
        break;
      case "discriminator": {
        const tags = bundledSchemas().discriminatorTags.get(discriminatorKey(error.parentSchema ?? {})) ?? [];
        const tag = String(p.tag);
        if (p.error === "mapping") {
          const found = (error.data as Record<string, unknown>)[tag];
          const hint = typeof found === "string" ? didYouMean(found, tags) : undefined;
          emit([...path, tag], "value", "invalid-value", `unknown ${tag} ${JSON.stringify(found)} in ${what}`, hint ?? `expected ${listOf(tags)}`, { code: "invalid_union_discriminator", options: tags });
        } else {
          emit(path, "key", "missing-key", `missing required key "${tag}" in ${what}`, tags.length ? `one of ${listOf(tags)}` : undefined, { code: "invalid_union_discriminator", path: [...path, tag], options: tags });
        }
        break;
      }
      case "type":
        emit(path, "value", "wrong-type", `${what} must be ${listOf(String(p.type).split(",").map(article))}, found ${article(jsonType(error.data))}`, undefined, { code: "invalid_type", expected: String(p.type).split(",").join(" | "), received: zodType(error.data) });
        break;
      case "minimum":
      case "maximum":
      case "exclusiveMinimum":
      case "exclusiveMaximum":
        emit(path, "value", "out-of-range", `${what} must be ${RANGE_WORDS[error.keyword]} ${p.limit}, found ${JSON.stringify(error.data)}`, undefined, rangeIssue(error.keyword, Number(p.limit), "number"));
        break;
      case "minItems":
      case "maxItems":
        emit(path, "value", "wrong-size", `${what} must have ${error.keyword === "minItems" ? "at least" : "at most"} ${p.limit} item${p.limit === 1 ? "" : "s"}, found ${(error.data as unknown[]).length}`, undefined, rangeIssue(error.keyword === "minItems" ? "minimum" : "maximum", Number(p.limit), "array"));
        break;
      case "minLength":
      case "maxLength":
        emit(path, "value", "wrong-size", `${what} must be ${error.keyword === "minLength" ? "at least" : "at most"} ${p.limit} character${p.limit === 1 ? "" : "s"} long`, undefined, rangeIssue(error.keyword === "minLength" ? "minimum" : "maximum", Number(p.limit), "string"));
        break;
      case "pattern":
        emit(path, "value", "bad-pattern", `${JSON.stringify(error.data)} is not a valid ${what}`, patternHint(String(p.pattern)), { code: "invalid_string", validation: "regex" });
        break;
      case "format":
        emit(path, "value", "bad-format", `${JSON.stringify(error.data)} is not a valid ${p.format === "uri" ? "absolute URL" : p.format} (${what})`, p.format === "uri" ? ABSOLUTE_URL_HINT : undefined, { code: "invalid_string", validation: p.format === "uri" ? "url" : String(p.format) });
        break;
      case "uniqueItems":
      {
        // ajv names the two places in either order (by the items' type): point at the repeat.
        const at = Math.max(Number(p.i), Number(p.j));
        emit([...path, at], "value", "duplicate-item", `${what} lists ${JSON.stringify((error.data as unknown[])[at])} twice`);
      }
        break;
      default:
        emit(path, "value", "schema", `${what} ${error.message ?? "is invalid"}`);
    }
  }
  return out;
}

type IssueFields = Omit<ValidationIssue, "path" | "message"> & { path?: (string | number)[] };

/** A too_small / too_big issue: `keyword` minimum, maximum or their exclusive forms. */
function rangeIssue(keyword: string, limit: number, type: string): IssueFields {
  const small = keyword === "minimum" || keyword === "exclusiveMinimum";
  const inclusive = !keyword.startsWith("exclusive");
  return small ? { code: "too_small", minimum: limit, type, inclusive } : { code: "too_big", maximum: limit, type, inclusive };
}

/** The type a schema declares for one of its properties, in zod's words ("unknown" when it names none). */
function declaredType(schema: Record<string, unknown> | undefined, key: string): string {
  const property = (schema?.properties as Record<string, { type?: unknown; $ref?: unknown }> | undefined)?.[key];
  if (typeof property?.type === "string") return property.type === "integer" ? "number" : property.type;
  if (property?.$ref !== undefined) return "object";
  return "unknown";
}

/** A value's type as zod names it when it receives one. */
function zodType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

const RANGE_WORDS: Record<string, string> = { minimum: "at least", maximum: "at most", exclusiveMinimum: "more than", exclusiveMaximum: "less than" };

const PATTERN_HINTS: Array<[RegExp, string]> = [
  [/\^\[A-Z\]\{2\}\$/, "a country is two uppercase letters (ISO 3166-1 alpha-2), e.g. US or DE"],
  [/\^\[a-z0-9-\]\+\$/, "a TLD is lowercase without a leading dot, e.g. zip"],
  [/\\\*\\\./, "a domain is plain (example.com) or a wildcard (*.example.com), with no protocol, path or port"],
  [/\^\[A-Za-z\]\[A-Za-z0-9_-\]/, "start with a letter; then letters, digits, _ or -"],
  [/\^\[A-Z_\]\[A-Z0-9_\]\*\$/, "an environment variable name: uppercase letters, digits and _"],
];

function patternHint(pattern: string): string {
  for (const [test, hint] of PATTERN_HINTS) if (test.test(pattern)) return hint;
  return `it must match ${pattern}`;
}

function toPath(pointer: string, data: unknown): Path {
  if (pointer === "") return [];
  const path: (string | number)[] = [];
  let node: unknown = data;
  for (const raw of pointer.slice(1).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    const segment = Array.isArray(node) ? Number(key) : key;
    path.push(segment);
    node = isObject(node) || Array.isArray(node) ? (node as Record<string, unknown>)[key] : undefined;
  }
  return path;
}

function within(pointer: string, parent: string): boolean {
  return pointer === parent || pointer.startsWith(`${parent}/`);
}

function isStepPath(path: Path): boolean {
  return path.length === 2 && path[0] === "steps" && typeof path[1] === "number";
}

/** A branch that only demands keys, e.g. `{required: [url]}` (with `properties: {url: true}` for strict mode). */
function isRequiredOnly(branch: Record<string, unknown>): boolean {
  if (!Array.isArray(branch.required)) return false;
  const required = branch.required as unknown[];
  const properties = branch.properties as Record<string, unknown> | undefined;
  const declaresOnlyRequired = properties === undefined || Object.keys(properties).every((k) => required.includes(k));
  return Object.keys(branch).every((k) => k === "required" || k === "properties") && declaresOnlyRequired;
}

function branchType(branch: Record<string, unknown>): string | undefined {
  if (typeof branch.type === "string") return branch.type;
  if (typeof branch.$ref === "string") return "object";
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (Number.isInteger(value)) return "integer";
  return typeof value;
}

function typeAccepts(declared: unknown, actual: string): boolean {
  const types = Array.isArray(declared) ? declared.map(String) : [String(declared)];
  return types.includes(actual) || (actual === "integer" && types.includes("number"));
}

function article(type: string): string {
  const words: Record<string, string> = { object: "a mapping", array: "a list", string: "a string", integer: "an integer", number: "a number", boolean: "a boolean (true or false)", null: "null" };
  return words[type] ?? type;
}

const q = (s: string) => `"${s}"`;
