import type { CountName, Expectation, FieldRule } from "../../core/index.js";
import { parseFieldPath } from "../../core/index.js";
import type { Reporter } from "../reporter.js";
import { isObj, stepsOf, type Obj } from "../sites.js";
import type { Path } from "../yaml/index.js";

const COUNTS: readonly CountName[] = ["documents", "failed", "blocked", "changed"];

/** Field paths of every `expect.fields` are readable paths; min not above max. */
export function checkExpectations(data: unknown, report: Reporter): void {
  const sites: Array<{ path: Path; expect: unknown }> = stepsOf(data).map(({ index, step }) => ({ path: ["steps", index, "expect"], expect: step.expect }));
  if (isObj(data)) sites.push({ path: ["expect"], expect: data.expect });
  for (const { path, expect } of sites) {
    if (!isObj(expect)) continue;
    for (const name of COUNTS) {
      const bounds = expect[name];
      if (isObj(bounds) && typeof bounds.min === "number" && typeof bounds.max === "number" && bounds.min > bounds.max) {
        report.error([...path, name, "min"], { code: "empty-range", message: `expect.${name}: min ${bounds.min} is above max ${bounds.max}, so no run can meet it` });
      }
    }
    if (!isObj(expect.fields)) continue;
    for (const [field, rule] of Object.entries(expect.fields)) {
      const parsed = parseFieldPath(field);
      if (typeof parsed === "string") {
        report.error([...path, "fields", field], { code: "bad-field-path", message: `"${field}" is not a field path: ${parsed}`, hint: "write names joined by dots, with [] after a list: products[].price", at: "key" });
      }
      if (isObj(rule) && typeof rule.min === "number" && typeof rule.max === "number" && rule.min > rule.max) {
        report.error([...path, "fields", field, "min"], { code: "empty-range", message: `fields.${field}: min ${rule.min} is above max ${rule.max}, so no value can meet it` });
      }
    }
  }
}

/** The expectations of a schema-valid `expect:` object, in file order, each with the position of its key. */
export function normalizeExpectations(expect: Obj, path: Path, report: Reporter): Expectation[] {
  const out: Expectation[] = [];
  for (const [key, value] of Object.entries(expect)) {
    if (!isObj(value)) continue;
    if ((COUNTS as readonly string[]).includes(key)) {
      out.push({ kind: "count", name: key as CountName, bounds: structuredClone(value), at: report.positionOf([...path, key]) });
    } else if (key === "fields") {
      for (const [field, rule] of Object.entries(value)) {
        out.push({ kind: "field", path: field, rule: structuredClone(rule) as FieldRule, at: report.positionOf([...path, "fields", field]) });
      }
    } else if (key === "markdown") {
      out.push({
        kind: "markdown",
        ...(typeof value.minChars === "number" ? { minChars: value.minChars } : {}),
        ...(Array.isArray(value.contains) ? { contains: [...(value.contains as string[])] } : {}),
        at: report.positionOf([...path, key]),
      });
    }
  }
  return out;
}
