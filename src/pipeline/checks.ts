import { extractUrlProblem } from "../core/index.js";
import { DEFAULT_SCRAPE_OPTIONS } from "./defaults.js";
import { checkParseSteps } from "./step-kinds/index.js";
import { checkNotify, checkSchedule } from "./step-kinds/index.js";
import type { Reporter } from "./reporter.js";
import { userSchemaAjv } from "./schema.js";
import { compileCanFail, metaSchemaErrors } from "./user-schema-check.js";
import { formatType, isObj, scrapeOptionSites, stepsOf, type Obj } from "./sites.js";
import { checkSearchSteps } from "./step-kinds/index.js";
import { checkAgentSteps } from "./step-kinds/index.js";
import { didYouMean, listOf } from "./suggest.js";
import { fieldIn, STEP_KINDS } from "./yaml/index.js";
import type { Path } from "./yaml/index.js";
import { checkSessions } from "./step-kinds/index.js";
import { checkInteractSteps } from "./step-kinds/index.js";
import { checkExpectations } from "./step-kinds/index.js";

/** The rules JSON Schema cannot express. Each reads the data defensively: it may be invalid. */
export function semanticChecks(data: unknown, report: Reporter): void {
  checkStepGraph(data, report);
  for (const site of scrapeOptionSites(data)) checkScrapeOptions(data, site.path, site.options, report);
  checkUrls(data, report);
  checkPathRegexes(data, report);
  checkVolatilePatterns(data, report);
  checkUserSchemas(data, report);
  checkParseSteps(data, report);
  checkSearchSteps(data, report);
  checkSessions(data, report);
  checkInteractSteps(data, report);
  checkSchedule(data, report);
  checkNotify(data, report);
  checkAgentSteps(data, report);
  checkExpectations(data, report);
}

function checkStepGraph(data: unknown, report: Reporter): void {
  const steps = stepsOf(data);
  const firstIndex = new Map<string, number>();
  for (const { index, step } of steps) {
    if (typeof step.id !== "string") continue;
    const earlier = firstIndex.get(step.id);
    if (earlier === undefined) firstIndex.set(step.id, index);
    else report.error(["steps", index, "id"], { code: "duplicate-step-id", message: `duplicate step id "${step.id}"`, hint: `the first step with this id is on line ${report.lineOf(["steps", earlier, "id"])}` });
  }
  const ids = [...firstIndex.keys()];
  for (const { index, step } of steps) {
    const id = typeof step.id === "string" ? step.id : undefined;
    const references: Array<{ path: Path; target: string; via: "needs" | "urls.from" }> = [];
    if (Array.isArray(step.needs)) {
      step.needs.forEach((target, j) => typeof target === "string" && references.push({ path: ["steps", index, "needs", j], target, via: "needs" }));
    }
    for (const kind of ["scrape", "extract"] as const) {
      const body = step[kind];
      if (isObj(body) && isObj(body.urls) && typeof body.urls.from === "string") {
        references.push({ path: ["steps", index, kind, "urls", "from"], target: body.urls.from, via: "urls.from" });
      }
    }
    for (const ref of references) {
      const targetIndex = firstIndex.get(ref.target);
      if (ref.target === id) {
        report.error(ref.path, { code: "step-cycle", message: `step "${id}" refers to itself in ${ref.via}` });
      } else if (targetIndex === undefined) {
        report.error(ref.path, { code: "unknown-step", message: `${ref.via} names "${ref.target}", which is not a step of this pipeline`, hint: didYouMean(ref.target, ids) ?? (ids.length ? `steps: ${listOf(ids.map((s) => `"${s}"`))}` : undefined) });
      } else if (targetIndex > index) {
        const cycle = id === undefined ? undefined : findCycle(edgesWithLater(steps), id);
        if (cycle) report.error(ref.path, { code: "step-cycle", message: `steps form a cycle: ${cycle.join(" → ")}`, hint: "a step can only depend on steps above it" });
        else report.error(ref.path, { code: "step-order", message: `${ref.via} names "${ref.target}", which comes later in the file`, hint: `move step "${ref.target}" above step "${id ?? index + 1}"` });
      }
    }
  }
}

function edgesWithLater(steps: Array<{ step: Obj }>): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const { step } of steps) {
    if (typeof step.id !== "string") continue;
    const targets: string[] = Array.isArray(step.needs) ? step.needs.filter((t): t is string => typeof t === "string") : [];
    for (const kind of ["scrape", "extract"] as const) {
      const body = step[kind];
      if (isObj(body) && isObj(body.urls) && typeof body.urls.from === "string") targets.push(body.urls.from);
    }
    edges.set(step.id, targets);
  }
  return edges;
}

function findCycle(edges: Map<string, string[]>, start: string): string[] | undefined {
  const stack: Array<{ node: string; path: string[] }> = [{ node: start, path: [start] }];
  const seen = new Set<string>();
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    for (const next of edges.get(node) ?? []) {
      if (next === start) return [...path, start];
      if (!seen.has(next)) {
        seen.add(next);
        stack.push({ node: next, path: [...path, next] });
      }
    }
  }
  return undefined;
}

function checkScrapeOptions(data: unknown, path: Path, options: Obj, report: Reporter): void {
  const defaults = isObj(data) && isObj(data.defaults) && isObj(data.defaults.scrapeOptions) ? data.defaults.scrapeOptions : {};
  const formats = Array.isArray(options.formats) ? options.formats : undefined;
  if (formats) {
    const types = formats.map(formatType);
    const tracking = types.indexOf("changeTracking");
    if (tracking !== -1 && !types.includes("markdown")) {
      report.error([...path, "formats", tracking], { code: "change-tracking-needs-markdown", message: `changeTracking in ${fieldIn([...path, "formats"], data)} needs markdown in the same formats`, hint: "add markdown to formats: changes are computed on the markdown" });
    }
    const screenshots = types.flatMap((t, i) => (t === "screenshot" || t === "screenshot@fullPage" ? [i] : []));
    // A parse step refuses every screenshot format on its own (format-not-for-files).
    for (const i of path[2] === "parse" ? [] : screenshots.slice(1)) {
      report.error([...path, "formats", i], { code: "multiple-screenshots", message: `${fieldIn([...path, "formats"], data)} asks for more than one screenshot`, hint: "keep one screenshot format; use a screenshot action for more" });
    }
  }
  const waitFor = typeof options.waitFor === "number" ? options.waitFor : undefined;
  const timeout = numberOr(options.timeout, numberOr(defaults.timeout, DEFAULT_SCRAPE_OPTIONS.timeout));
  if (waitFor !== undefined && waitFor > timeout / 2) {
    report.error([...path, "waitFor"], { code: "wait-exceeds-timeout", message: `waitFor (${waitFor} ms) must not exceed half of timeout (${timeout} ms)`, hint: `raise timeout to at least ${waitFor * 2}, or wait less` });
  }
  if (Array.isArray(options.actions)) {
    let focused = false;
    options.actions.forEach((action, i) => {
      if (!isObj(action)) return;
      if (action.type === "click") focused = true;
      if (action.type === "write" && !focused) {
        report.warn([...path, "actions", i], { code: "write-without-click", message: `write action ${i} in ${fieldIn(path, data)} comes before any click`, hint: "click the input first: write types into the focused element" });
      }
    });
  }
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === "number" ? value : fallback;
}

const FETCHABLE = new Set(["http:", "https:"]);

function checkUrls(data: unknown, report: Reporter): void {
  for (const { index, step } of stepsOf(data)) {
    for (const kind of STEP_KINDS) {
      const body = step[kind];
      if (!isObj(body)) continue;
      const base: Path = ["steps", index, kind];
      if (typeof body.url === "string") checkScheme(body.url, [...base, "url"], report);
      if (Array.isArray(body.urls)) {
        const lenient = kind === "extract" && body.ignoreInvalidURLs === true;
        body.urls.forEach((url, i) => {
          if (typeof url !== "string") return;
          if (kind === "extract") checkExtractUrl(url, [...base, "urls", i], lenient, report);
          else checkScheme(url, [...base, "urls", i], report);
        });
      }
    }
  }
}

function checkScheme(url: string, path: Path, report: Reporter): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return; // the schema's uri format already reported it
  }
  if (!FETCHABLE.has(parsed.protocol)) {
    report.error(path, { code: "unsupported-url", message: `${parsed.protocol.slice(0, -1)}: URLs cannot be fetched: ${url}`, hint: "only http and https URLs are fetched" });
  }
}

function checkExtractUrl(url: string, path: Path, lenient: boolean, report: Reporter): void {
  const problem = extractUrlProblem(url);
  if (problem === undefined) return;
  if (lenient) report.warn(path, { code: "invalid-url", message: `"${url}" is not a valid URL or glob (${problem}) and will be skipped (ignoreInvalidURLs)` });
  else report.error(path, { code: "invalid-url", message: `"${url}" is not a valid URL or glob (${problem})`, hint: "write an http(s) URL such as https://example.com/products/*, or set ignoreInvalidURLs: true to skip invalid entries" });
}

function checkPathRegexes(data: unknown, report: Reporter): void {
  for (const { index, step } of stepsOf(data)) {
    if (!isObj(step.crawl)) continue;
    for (const key of ["includePaths", "excludePaths"] as const) {
      const list = step.crawl[key];
      if (!Array.isArray(list)) continue;
      list.forEach((pattern, i) => {
        if (typeof pattern !== "string") return;
        try {
          new RegExp(pattern);
        } catch (error) {
          report.error(["steps", index, "crawl", key, i], { code: "invalid-regex", message: `${key}[${i}] is not a valid regular expression: ${(error as Error).message.replace(/^Invalid regular expression: /, "")}`, hint: `${key} are regexes tested against the URL path, e.g. ^/blog/.*` });
        }
      });
    }
  }
}

function checkVolatilePatterns(data: unknown, report: Reporter): void {
  if (!isObj(data) || !isObj(data.changeTracking) || !Array.isArray(data.changeTracking.volatile)) return;
  const { normalizers, volatile } = data.changeTracking;
  if (Array.isArray(normalizers) && volatile.length > 0 && !normalizers.includes("volatile")) {
    report.error(["changeTracking", "normalizers"], { code: "volatile-unused", message: "volatile patterns are listed but the volatile normalizer is not", hint: "add volatile to normalizers, or remove the patterns" });
  }
  volatile.forEach((pattern, i) => {
    if (typeof pattern !== "string") return;
    try {
      new RegExp(pattern, "gm");
    } catch (error) {
      report.error(["changeTracking", "volatile", i], { code: "invalid-regex", message: `volatile[${i}] is not a valid regular expression: ${(error as Error).message.replace(/^Invalid regular expression: /, "")}`, hint: "volatile patterns are JavaScript regexes matched in the page's markdown, e.g. Updated \\d+ minutes ago" });
    }
  });
}

/** JSON Schemas written inside the pipeline must themselves be valid: validated against the meta-schema and compiled. */
function checkUserSchemas(data: unknown, report: Reporter): void {
  const sites: Array<{ path: Path; schema: unknown }> = [];
  for (const { index, step } of stepsOf(data)) {
    if (isObj(step.extract) && step.extract.schema !== undefined) sites.push({ path: ["steps", index, "extract", "schema"], schema: step.extract.schema });
    if (isObj(step.agent) && step.agent.schema !== undefined) sites.push({ path: ["steps", index, "agent", "schema"], schema: step.agent.schema });
  }
  for (const { path, options } of scrapeOptionSites(data)) {
    if (Array.isArray(options.formats)) {
      options.formats.forEach((f, i) => isObj(f) && f.schema !== undefined && sites.push({ path: [...path, "formats", i, "schema"], schema: f.schema }));
    }
    for (const key of ["jsonOptions", "changeTrackingOptions"]) {
      const holder = options[key];
      if (isObj(holder) && holder.schema !== undefined) sites.push({ path: [...path, key, "schema"], schema: holder.schema });
    }
  }
  if (sites.length === 0) return;
  for (const { path, schema } of sites) {
    if (!isObj(schema)) continue; // the bundled schema reports the type
    const outside = externalRefs(schema, path);
    for (const ref of outside) {
      report.error(ref.path, { code: "external-ref", message: `$ref ${JSON.stringify(ref.value)} points outside this schema: schemas are never fetched`, hint: 'put the definition under "definitions" and refer to it as "#/definitions/NAME"' });
    }
    if (outside.length > 0) continue;
    const errors = metaSchemaErrors(schema);
    if (errors) {
      // The meta-schema reports one problem several ways (enum, type, anyOf); keep the first per place.
      const seen = new Set<string>();
      for (const e of errors) {
        if (e.keyword === "anyOf" || e.keyword === "oneOf" || seen.has(e.instancePath)) continue;
        seen.add(e.instancePath);
        const inner = e.instancePath.slice(1).split("/").filter(Boolean).map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
        const at: Path = [...path, ...inner.map((s, i) => (Array.isArray(valueAt(schema, inner.slice(0, i))) ? Number(s) : s))];
        const where = inner.length ? inner.join("/") : "the schema";
        const found = valueAt(schema, inner);
        const allowed = e.keyword === "enum" ? (e.params as { allowedValues: unknown[] }).allowedValues : undefined;
        const message = allowed ? `${JSON.stringify(found)} is not a valid value of ${where}` : `${where} ${e.message ?? "is invalid"}`;
        const hint = allowed ? (typeof found === "string" ? didYouMean(found, allowed.map(String)) : undefined) ?? `expected ${listOf(allowed)}` : undefined;
        report.error(at, { code: "invalid-json-schema", message: `not a valid JSON Schema: ${message}`, hint });
      }
      continue;
    }
    if (!compileCanFail(schema)) continue;
    const ajv = userSchemaAjv();
    try {
      ajv.compile(schema);
    } catch (error) {
      report.error(path, { code: "invalid-json-schema", message: `JSON Schema does not compile: ${(error as Error).message}` });
    } finally {
      ajv.removeSchema(schema);
    }
  }
}

/** Every `$ref` that does not point inside the schema itself (`#…`), with its place. */
function externalRefs(node: unknown, path: Path, out: Array<{ path: Path; value: string }> = []): Array<{ path: Path; value: string }> {
  if (Array.isArray(node)) node.forEach((child, i) => externalRefs(child, [...path, i], out));
  else if (isObj(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string" && !value.startsWith("#")) out.push({ path: [...path, key], value });
      else if (key !== "enum" && key !== "const" && key !== "examples" && key !== "default") externalRefs(value, [...path, key], out);
    }
  }
  return out;
}

function valueAt(root: unknown, keys: string[]): unknown {
  return keys.reduce<unknown>((node, key) => (isObj(node) || Array.isArray(node) ? (node as Obj)[key] : undefined), root);
}
