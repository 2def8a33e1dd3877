import type { Action, ChangeComparison, EngineConfig, Format, LlmSettings, PdfParser, Pipeline, RetryPolicy, ScrapeOptions, Step, UrlInput } from "../core/index.js";
import { readCrawlPrompt } from "./step-kinds/index.js";
import { normalizeParse } from "./step-kinds/index.js";
import * as D from "./defaults.js";
import { normalizeNotify, normalizeSchedule } from "./step-kinds/index.js";
import type { Reporter } from "./reporter.js";
import { normalizeSearchStep } from "./step-kinds/index.js";
import { normalizeAgentStep } from "./step-kinds/index.js";
import { isObj, type Obj } from "./sites.js";
import type { Path } from "./yaml/index.js";
import { normalizeSessions } from "./step-kinds/index.js";
import { normalizeExpectations } from "./step-kinds/index.js";

const clone = <T>(value: T): T => structuredClone(value);

/**
 * Maps a schema-valid pipeline file to the normalized Pipeline: v1 forms become v2 (each with a
 * warning naming the replacement), pipeline defaults and language defaults are applied here and
 * nowhere else, and actions or headers force storeInCache off.
 */
export function normalizePipeline(file: string, data: Obj, report: Reporter): Pipeline {
  const pipelineDefaults = isObj(data.defaults) && isObj(data.defaults.scrapeOptions) ? data.defaults.scrapeOptions : {};
  if (isObj(data.defaults) && isObj(data.defaults.scrapeOptions)) {
    // Reported once, at the defaults; the merged copies in each step stay quiet.
    normalizeScrapeOptions(data.defaults.scrapeOptions, {}, ["defaults", "scrapeOptions"], report);
  }
  const retry = { ...D.DEFAULT_RETRY, ...(isObj(data.retry) ? data.retry : {}) } as RetryPolicy;
  const steps = (data.steps as Obj[]).map((step, index) => normalizeStep(step, index, { pipelineDefaults, retry, report }));
  const pipeline: Pipeline = {
    file,
    version: 1,
    name: data.name as string,
    engine: normalizeEngine(data.engine),
    concurrency: (data.concurrency as number | undefined) ?? D.DEFAULT_PIPELINE.concurrency,
    perHostConcurrency: (data.perHostConcurrency as number | undefined) ?? D.DEFAULT_PIPELINE.perHostConcurrency,
    retry,
    budget: isObj(data.budget) ? clone(data.budget) : {},
    allowPrivateNetwork: (data.allowPrivateNetwork as boolean | undefined) ?? D.DEFAULT_PIPELINE.allowPrivateNetwork,
    changeTracking: withDefaults<ChangeComparison>(D.DEFAULT_CHANGE_COMPARISON, isObj(data.changeTracking) ? data.changeTracking : {}),
    extractor: (data.extractor as Pipeline["extractor"] | undefined) ?? D.DEFAULT_PIPELINE.extractor,
    llm: withDefaults<LlmSettings>(D.DEFAULT_LLM, isObj(data.llm) ? data.llm : {}),
    steps,
  };
  if (isObj(data.notify)) pipeline.notify = normalizeNotify(data.notify);
  if (isObj(data.schedule)) pipeline.schedule = normalizeSchedule(data.schedule);
  if (typeof data.description === "string") pipeline.description = data.description;
  if (data.keepPages === false) pipeline.keepPages = false;
  if (isObj(data.expect)) pipeline.expect = normalizeExpectations(data.expect, ["expect"], report);
  if (isObj(data.sessions) && Object.keys(data.sessions).length > 0) pipeline.sessions = normalizeSessions(data.sessions);
  return pipeline;
}

function normalizeEngine(engine: unknown): EngineConfig {
  const value = engine ?? D.DEFAULT_PIPELINE.engine;
  const spec: Obj = typeof value === "string" ? { kind: value } : (value as Obj);
  if (spec.kind === "firecrawl") {
    const out: EngineConfig = { kind: "firecrawl", apiKeyEnv: (spec.apiKeyEnv as string | undefined) ?? D.DEFAULT_ENGINE_OBJECT.apiKeyEnv };
    if (typeof spec.baseUrl === "string") out.baseUrl = spec.baseUrl;
    return out;
  }
  return { kind: "local", browser: (spec.browser as "auto" | "always" | "never" | undefined) ?? D.DEFAULT_ENGINE_OBJECT.browser };
}

interface StepContext {
  pipelineDefaults: Obj;
  retry: RetryPolicy;
  report: Reporter;
}

function normalizeStep(step: Obj, index: number, ctx: StepContext): Step {
  const expect = isObj(step.expect) ? normalizeExpectations(step.expect, ["steps", index, "expect"], ctx.report) : [];
  const common = {
    id: step.id as string,
    needs: Array.isArray(step.needs) ? [...(step.needs as string[])] : [],
    retry: { ...ctx.retry, ...(isObj(step.retry) ? step.retry : {}) } as RetryPolicy,
    continueOnError: (step.continueOnError as boolean | undefined) ?? D.DEFAULT_STEP.continueOnError,
    ...(typeof step.timeoutMs === "number" ? { timeoutMs: step.timeoutMs } : {}),
    ...(typeof step.session === "string" ? { session: step.session } : {}),
    ...(expect.length ? { expect } : {}),
    at: ctx.report.positionOf(["steps", index]),
  };
  const at = (kind: string, ...rest: (string | number)[]): Path => ["steps", index, kind, ...rest];
  if (isObj(step.scrape)) {
    const { url, urls, ...options } = step.scrape;
    return { ...common, kind: "scrape", body: { urls: urlInput(url, urls), ...normalizeScrapeOptions(options, ctx.pipelineDefaults, at("scrape"), ctx.report) } };
  }
  if (isObj(step.crawl)) {
    const body = clone(step.crawl);
    const v1Crawl = V1_CRAWL_KEYS.some((key) => key in body);
    const scrapeOptions = normalizeScrapeOptions(isObj(body.scrapeOptions) ? body.scrapeOptions : {}, ctx.pipelineDefaults, at("crawl", "scrapeOptions"), ctx.report, v1Crawl);
    renameV1(body, "maxDepth", "maxDiscoveryDepth", (v) => v, at("crawl"), ctx.report);
    renameV1(body, "allowBackwardCrawling", "crawlEntireDomain", (v) => v, at("crawl"), ctx.report);
    renameV1(body, "allowBackwardLinks", "crawlEntireDomain", (v) => v, at("crawl"), ctx.report);
    renameV1(body, "ignoreSitemap", "sitemap", (v) => (v ? "skip" : "include"), at("crawl"), ctx.report);
    // With a prompt, the options written in the file are remembered: they win over any derived later (by a model).
    const setInFile = typeof body.prompt === "string" ? Object.keys(body).filter((k) => k !== "prompt" && k !== "url" && k !== "scrapeOptions") : undefined;
    const fromPrompt = typeof body.prompt === "string" ? optionsFromPrompt(body, body.prompt, at("crawl", "prompt"), ctx.report) : undefined;
    const crawl = { ...withDefaults<Obj>(D.DEFAULT_CRAWL, body), scrapeOptions } as unknown as Extract<Step, { kind: "crawl" }>["body"];
    return { ...common, kind: "crawl", body: crawl, ...(fromPrompt ? { fromPrompt } : {}), ...(setInFile ? { setInFile } : {}) };
  }
  if (isObj(step.map)) {
    return { ...common, kind: "map", body: withDefaults<Extract<Step, { kind: "map" }>["body"]>(D.DEFAULT_MAP, step.map) };
  }
  if (isObj(step.parse)) return { ...common, kind: "parse", body: normalizeParse(step.parse, ctx.pipelineDefaults, at("parse"), ctx.report, normalizeScrapeOptions) };
  if (isObj(step.search)) return normalizeSearchStep(common, step.search, (own, path) => normalizeScrapeOptions(own, ctx.pipelineDefaults, path, ctx.report), at("search"));
  if (isObj(step.interact)) {
    const actions = normalizeActions(step.interact.actions as Obj[]);
    const scrapeIds = Array.isArray(step.interact.scrapeIds) ? { scrapeIds: (step.interact.scrapeIds as string[]).map((id) => id.toLowerCase()) } : {};
    const tabs = isObj(step.interact.tabs) ? { tabs: { selector: step.interact.tabs.selector as string, limit: (step.interact.tabs.limit as number | undefined) ?? D.DEFAULT_INTERACT_TABS.limit, actions: normalizeActions((step.interact.tabs.actions as Obj[] | undefined) ?? []) } } : {};
    return { ...common, kind: "interact", body: { from: step.interact.from as string, actions, ...scrapeIds, ...tabs } };
  }
  if (isObj(step.agent)) return normalizeAgentStep(common, step.agent, (own, path) => normalizeScrapeOptions(own, ctx.pipelineDefaults, path, ctx.report), at("agent"));
  const extract = step.extract as Obj;
  const { urls, scrapeOptions, ...rest } = clone(extract);
  return {
    ...common,
    kind: "extract",
    body: {
      urls: urlInput(undefined, urls),
      ...withDefaults<Obj>(D.DEFAULT_EXTRACT, rest),
      scrapeOptions: normalizeScrapeOptions(isObj(scrapeOptions) ? scrapeOptions : {}, ctx.pipelineDefaults, at("extract", "scrapeOptions"), ctx.report),
    } as Extract<Step, { kind: "extract" }>["body"],
  };
}

/**
 * Applies the options a crawl's prompt implies to `body`, except those set explicitly, which
 * win. Returns what was applied; a prompt that implies nothing gets a warning.
 */
function optionsFromPrompt(body: Obj, prompt: string, path: Path, report: Reporter): Obj | undefined {
  const { options } = readCrawlPrompt(prompt);
  const applied: Obj = {};
  for (const [key, value] of Object.entries(options)) {
    if (key in body) continue;
    body[key] = value;
    applied[key] = value;
  }
  if (Object.keys(options).length === 0) {
    report.warn(path, {
      code: "prompt-not-understood",
      message: "no crawl option was recognised in this prompt, so it changes nothing",
      hint: 'phrase it like "only blog posts, at most 50 pages, two levels deep, include subdomains, skip the sitemap", or set the options themselves',
    });
  }
  return Object.keys(applied).length > 0 ? applied : undefined;
}

function urlInput(url: unknown, urls: unknown): UrlInput {
  if (typeof url === "string") return [url];
  return clone(urls) as UrlInput;
}

/** The user's keys in their order, then every default they left out. */
function withDefaults<R = Obj>(defaults: object, own: Obj): R {
  const out: Obj = clone(own);
  for (const [key, value] of Object.entries(defaults)) if (!(key in out)) out[key] = clone(value);
  return out as R;
}

/** Moves a v1 key to its v2 name, warning once; both present is an error (the file is ambiguous). */
function renameV1(body: Obj, from: string, to: string, convert: (v: unknown) => unknown, path: Path, report: Reporter): void {
  if (!(from in body)) return;
  const value = body[from];
  delete body[from];
  if (to in body) {
    report.error([...path, from], { code: "conflicting-keys", at: "key", message: `${from} (v1) and ${to} (v2) are both set`, hint: `keep ${to}` });
    return;
  }
  body[to] = convert(value);
  report.warn([...path, from], { code: "deprecated", at: "key", message: `${from} is a v1 option`, hint: `use ${to}: ${JSON.stringify(body[to])}` });
}

/**
 * Scrape options to v2 with defaults. `path` is where these options sit in the file, for warnings;
 * `inherited` are the pipeline's `defaults.scrapeOptions` (already reported on their own).
 * Options written in v1 form (a v1-only key or format name, or inside a crawl written in v1 form:
 * `v1Context`) get v1's defaults where they differ from v2's (maxAge 0, no skipping of TLS
 * verification): what the service would do with the same request.
 */
export function normalizeScrapeOptions(own: Obj, inherited: Obj, path: Path, report: Reporter, v1Context = false): ScrapeOptions {
  const quiet = own !== inherited && Object.keys(inherited).length > 0;
  const merged: Obj = { ...clone(inherited), ...clone(own) };
  const v1 = v1Form(merged, v1Context);
  // Findings about inherited keys belong to `defaults`, reported there once.
  const warn = (key: string, finding: Parameters<Reporter["warn"]>[1]) => {
    if (!quiet || key in own) report.warn([...path, key], finding);
  };
  const fail = (key: string, finding: Parameters<Reporter["error"]>[1]) => {
    if (!quiet || key in own) report.error([...path, key], finding);
  };

  if ("parsePDF" in merged) {
    const parsePDF = merged.parsePDF;
    delete merged.parsePDF;
    if ("parsers" in merged) fail("parsePDF", { code: "conflicting-keys", at: "key", message: "parsePDF (v1) and parsers (v2) are both set", hint: "keep parsers" });
    else {
      merged.parsers = parsePDF ? ["pdf"] : [];
      warn("parsePDF", { code: "deprecated", at: "key", message: "parsePDF is a v1 option", hint: `use parsers: ${parsePDF ? "[pdf]" : "[]"}` });
    }
  }
  if (merged.proxy === "stealth") {
    merged.proxy = "enhanced";
    warn("proxy", { code: "renamed-value", at: "value", message: "proxy stealth is the older name of enhanced", hint: "use proxy: enhanced" });
  }
  const jsonOptions = isObj(merged.jsonOptions) ? merged.jsonOptions : undefined;
  const trackingOptions = isObj(merged.changeTrackingOptions) ? merged.changeTrackingOptions : undefined;
  delete merged.jsonOptions;
  delete merged.changeTrackingOptions;
  if (jsonOptions) warn("jsonOptions", { code: "deprecated", at: "key", message: "jsonOptions is a v1 option", hint: "use a format object: {type: json, prompt, schema}" });
  if (trackingOptions) warn("changeTrackingOptions", { code: "deprecated", at: "key", message: "changeTrackingOptions is a v1 option", hint: "use a format object: {type: changeTracking, modes, schema, prompt, tag}" });

  const rawFormats = (Array.isArray(merged.formats) ? merged.formats : D.DEFAULT_SCRAPE_OPTIONS.formats) as unknown[];
  const formatsPath = "formats" in own || !quiet;
  const formats = rawFormats.map((item, i) => {
    const note = (finding: Parameters<Reporter["warn"]>[1]) => formatsPath && report.warn([...path, "formats", i], finding);
    if (item === "extract" || item === "json") {
      if (item === "extract") note({ code: "deprecated", message: "format extract is the v1 name of json", hint: "use {type: json, prompt, schema}" });
      return jsonFormat(jsonOptions);
    }
    if (item === "screenshot@fullPage") {
      note({ code: "deprecated", message: "format screenshot@fullPage is v1", hint: "use {type: screenshot, fullPage: true}" });
      return { type: "screenshot", fullPage: true };
    }
    if (item === "changeTracking") return { ...clone(D.DEFAULT_FORMATS.changeTracking), ...withoutUndefined(trackingOptions ?? {}), type: "changeTracking" };
    if (typeof item === "string") return { ...clone(D.DEFAULT_FORMATS[item] ?? {}), type: item };
    const object = item as Obj;
    return { ...clone(D.DEFAULT_FORMATS[object.type as string] ?? {}), ...clone(object) };
  }) as Format[];

  const options = withDefaults(v1 ? { ...D.DEFAULT_SCRAPE_OPTIONS, ...D.V1_SCRAPE_OPTION_DEFAULTS } : D.DEFAULT_SCRAPE_OPTIONS, { ...merged, formats });
  options.location = { ...D.DEFAULT_LOCATION, ...(isObj(merged.location) ? merged.location : {}) };
  options.parsers = (options.parsers as unknown[]).map((p) => (typeof p === "string" ? { type: p } : p)) as PdfParser[];
  if (Array.isArray(merged.actions)) {
    options.actions = (merged.actions as Obj[]).map((a) => ({ ...clone(D.DEFAULT_ACTIONS[a.type as string] ?? {}), ...a })) as Action[];
  }
  const forcing = [hasItems(options.actions) && "actions", hasItems(options.headers) && "headers"].filter(Boolean);
  if (forcing.length > 0) {
    if (own.storeInCache === true) warn("storeInCache", { code: "store-in-cache-forced", message: `storeInCache is forced to false when ${forcing.join(" and ")} are used`, hint: "pages fetched with actions or custom headers are never cached" });
    options.storeInCache = false;
  }
  return options as unknown as ScrapeOptions;
}

const V1_KEYS = ["parsePDF", "jsonOptions", "changeTrackingOptions"];
const V1_FORMATS = new Set(["extract", "screenshot@fullPage"]);
const V1_CRAWL_KEYS = ["maxDepth", "allowBackwardCrawling", "allowBackwardLinks", "ignoreSitemap"];

/** Whether scrape options are written in v1 form: a key or format name only v1 has. */
function v1Form(options: Obj, v1Context: boolean): boolean {
  if (v1Context || V1_KEYS.some((key) => key in options)) return true;
  return Array.isArray(options.formats) && options.formats.some((f) => typeof f === "string" && V1_FORMATS.has(f));
}

function jsonFormat(jsonOptions: Obj | undefined): Format {
  const format: Obj = { type: "json" };
  if (!jsonOptions) return format as Format;
  if (jsonOptions.schema !== undefined) format.schema = jsonOptions.schema;
  const prompts = [jsonOptions.systemPrompt, jsonOptions.prompt].filter((p): p is string => typeof p === "string" && p !== "");
  if (prompts.length > 0) format.prompt = prompts.join("\n\n");
  return format as Format;
}

function hasItems(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return isObj(value) && Object.keys(value).length > 0;
}

function withoutUndefined(object: Obj): Obj {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined));
}

/** Actions with their defaults filled in. */
function normalizeActions(actions: Obj[]): Action[] {
  return actions.map((a) => ({ ...clone(D.DEFAULT_ACTIONS[a.type as string] ?? {}), ...clone(a) })) as Action[];
}
