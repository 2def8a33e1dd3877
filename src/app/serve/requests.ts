import type { CrawlRequest, ExtractRequest, MapRequest, Pipeline, ScrapeRequest, Step, ThreatProtectionOverride } from "../../core/index.js";
import { extractUrlProblem, ScrapelineError, sortExtractUrls } from "../../core/index.js";
import { readRequestBody, V1_SCRAPE_OPTION_DEFAULTS, withoutClientKeys, type RequestKind } from "../../pipeline/index.js";

type Body = Record<string, unknown>;

export interface ScrapeCall {
  url: string;
  options: Omit<ScrapeRequest, "urls">;
  pipeline: Pipeline;
}

export interface BatchCall {
  urls: string[];
  warning?: string;
  invalidURLs?: string[];
  options: Omit<ScrapeRequest, "urls">;
  maxConcurrency?: number;
  pipeline: Pipeline;
}

export interface CrawlCall {
  request: CrawlRequest;
  warning?: string;
  maxConcurrency?: number;
  pipeline: Pipeline;
}

export interface MapCall {
  request: MapRequest;
  threatProtection?: ThreatProtectionOverride;
  pipeline: Pipeline;
}

/** A request body as an object, without the client-only keys the SDKs send (origin, fastMode, …: pipeline/client-keys.ts). */
export function asBody(body: unknown): Body {
  if (body === null || typeof body !== "object" || Array.isArray(body)) throw new ScrapelineError("invalid-input", "Bad request: the body must be a JSON object");
  return withoutClientKeys(body as Body, "work");
}

/**
 * A URL written without its scheme (`docs.example.com/page`, `example.com:8080`) gets `http://`,
 * as the service prepends it; one with a scheme (`ftp://…`, `data:…`), or that is not a string,
 * is left for the checks to accept or refuse.
 */
function withScheme(value: unknown): unknown {
  if (typeof value !== "string" || value === "" || /^[a-z][a-z0-9+.-]*:\/\//i.test(value) || /^(data|javascript|mailto|file|about|blob):/i.test(value)) return value;
  // Only what reads as a host (and path) gets one: "not a url" stays as written, and is refused as written.
  if (/\s/.test(value)) return value;
  return `http://${value}`;
}

/** Takes a key the step schemas do not know but the endpoint does. */
function take<T>(body: Body, key: string, check: (v: unknown) => v is T, expected: string): T | undefined {
  if (!(key in body)) return undefined;
  const value = body[key];
  delete body[key];
  if (value === undefined || value === null) return undefined;
  if (!check(value)) throw new ScrapelineError("invalid-input", `Bad request: ${key} must be ${expected}`);
  return value;
}

const isPositiveInt = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 1;
const isBool = (v: unknown): v is boolean => typeof v === "boolean";

/**
 * Checks a body as a pipeline step of that kind would be; errors become one 400 message. A v1
 * form (parsePDF, jsonOptions, format extract, crawl maxDepth…) is mapped to v2 on a v1 endpoint;
 * v2 removed them, so on v2 it is a 400 naming the replacement. The pipeline's warnings about the
 * body (a v1 form mapped, storeInCache forced off, a crawl prompt not understood) are returned
 * in `warnings`, for the answer's `warning` field.
 */
export function readStep(kind: RequestKind, body: Body, version: "v1" | "v2" = "v2"): { step: Step; pipeline: Pipeline; warnings: string[] } {
  const reading = readRequestBody(kind, body);
  const errors = reading.diagnostics.filter((d) => d.severity === "error");
  if (!reading.step || !reading.pipeline || errors.length > 0) {
    const text = errors.map((d) => `${d.message}${d.hint ? ` (${d.hint})` : ""}${limitReason(d.message)}`).join("; ");
    const unknown = errors.some((d) => d.code === "unknown-key");
    const issues = errors.map((d) => d.issue ?? { code: "custom", path: [], message: `${d.message}${d.hint ? ` (${d.hint})` : ""}` });
    throw new ScrapelineError("invalid-input", `${unknown ? "Unrecognized key in body -- " : "Bad request: "}${text || "invalid request body"}`, { issues });
  }
  const v1Forms = reading.diagnostics.filter((d) => d.severity === "warning" && d.code === "deprecated");
  if (version === "v2" && v1Forms.length > 0) {
    throw new ScrapelineError("invalid-input", `Bad request: ${v1Forms.map((d) => `${d.message}, removed in v2${d.hint ? `: ${d.hint}` : ""}`).join("; ")}`);
  }
  const warnings = reading.diagnostics.filter((d) => d.severity === "warning").map((d) => `${d.message}${d.hint ? ` (${d.hint})` : ""}`);
  return { step: reading.step, pipeline: reading.pipeline, warnings };
}

/**
 * The limits beyond SPEC.md that requests are held to, and why each exists: the service
 * documents it (API-NOTES.md), or the engine cannot do more. Said in the error, and in README.
 */
const LIMIT_REASONS: Array<[RegExp, string]> = [
  [/^waitFor /, "the service's limit: waitFor is at most 60000 ms and at most half of timeout"],
  [/^timeout /, "the service's limit: timeout is at least 1000 ms"],
  [/^actions must have at most/, "the service's limit: at most 50 actions"],
  [/(^|\.)prompt must be at most/, "the service's limit: prompts are at most 10000 characters"],
  [/\.scale must be/, "Chromium prints PDFs at a scale of 0.1 to 2"],
];

function limitReason(message: string): string {
  const found = LIMIT_REASONS.find(([pattern]) => pattern.test(message));
  return found ? ` — ${found[1]}` : "";
}

/** v1's format names (SPEC.md ScrapeOptions (v1); extract is v1's name of json). */
const V1_FORMATS = new Set(["markdown", "html", "rawHtml", "links", "screenshot", "screenshot@fullPage", "json", "extract", "changeTracking"]);

/**
 * A v1 body's scrape options may not ask for what only v2 has: a format v1 does not know
 * (images, summary, …), any format written as an object (v1's formats are names; their options
 * have fields of their own, such as jsonOptions), or `parsers` (v1 has parsePDF).
 */
export function refuseV2Only(options: unknown): void {
  if (options === null || typeof options !== "object" || Array.isArray(options)) return;
  if ("parsers" in options) throw new ScrapelineError("invalid-input", "Bad request: parsers is a v2 field; v1 has parsePDF (or use the v2 endpoint)");
  const formats = (options as Body).formats;
  if (!Array.isArray(formats)) return;
  for (const format of formats) {
    if (format !== null && typeof format === "object") {
      const type = (format as Body).type;
      throw new ScrapelineError("invalid-input", `Bad request: v1 formats are names, not objects${typeof type === "string" ? ` (found {type: ${type}})` : ""}; use the v2 endpoint for format objects`);
    }
    if (typeof format !== "string" || V1_FORMATS.has(format)) continue;
    throw new ScrapelineError("invalid-input", `Bad request: format ${format} is not a v1 format (v1 formats: ${[...V1_FORMATS].join(", ")}); use the v2 endpoint for v2 formats`);
  }
}

/** POST /v2/scrape (and /v1/scrape, with v1's forms and defaults): url plus scrape options. */
export function readScrapeCall(raw: unknown, version: "v1" | "v2" = "v2"): ScrapeCall {
  const body = asBody(raw);
  if ("urls" in body) throw new ScrapelineError("invalid-input", `Unrecognized key in body -- urls (scrape takes one url; use /${version}/batch/scrape for several)`);
  body.url = withScheme(body.url);
  if (version === "v1") v1ScrapeOptions(body);
  const { step, pipeline } = readStep("scrape", body, version) as { step: Extract<Step, { kind: "scrape" }>; pipeline: Pipeline };
  const { urls, ...options } = step.body;
  return { url: (urls as string[])[0]!, options, pipeline };
}

/** POST /v2/batch/scrape: urls plus scrape options at the top level. */
export function readBatchCall(raw: unknown, version: "v1" | "v2" = "v2"): BatchCall {
  const body = asBody(raw);
  // v1 fails a request with an invalid URL unless asked to skip them; v2 skips them.
  const ignoreInvalid = take(body, "ignoreInvalidURLs", isBool, "a boolean") ?? version === "v2";
  if (version === "v1") v1ScrapeOptions(body);
  const maxConcurrency = take(body, "maxConcurrency", isPositiveInt, "a positive integer");
  if ("url" in body) throw new ScrapelineError("invalid-input", "Unrecognized key in body -- url (batch scrape takes urls)");
  if (Array.isArray(body.urls)) body.urls = body.urls.map(withScheme);
  let invalidURLs: string[] | undefined;
  if (ignoreInvalid && Array.isArray(body.urls)) {
    invalidURLs = body.urls.filter((u) => !isHttpUrl(u)).map(String);
    body.urls = body.urls.filter(isHttpUrl);
    if ((body.urls as string[]).length === 0) throw new ScrapelineError("invalid-input", "Bad request: no valid URL in urls");
  }
  // A URL listed twice is scraped once (a job keeps one page per URL), and the answer says so.
  const repeated = Array.isArray(body.urls) ? body.urls.length - new Set(body.urls).size : 0;
  if (repeated > 0) body.urls = [...new Set(body.urls as unknown[])];
  const { step, pipeline, warnings } = readStep("scrape", body, version) as { step: Extract<Step, { kind: "scrape" }>; pipeline: Pipeline; warnings: string[] };
  if (repeated > 0) warnings.push(`${repeated} URL(s) were listed more than once in urls and are scraped once`);
  const { urls, ...options } = step.body;
  return { urls: urls as string[], ...(invalidURLs ? { invalidURLs } : {}), options, ...(maxConcurrency ? { maxConcurrency } : {}), ...warningOf(warnings), pipeline };
}

/** POST /v2/crawl. */
export function readCrawlCall(raw: unknown, version: "v1" | "v2" = "v2"): CrawlCall {
  const body = asBody(raw);
  body.url = withScheme(body.url);
  const maxConcurrency = take(body, "maxConcurrency", isPositiveInt, "a positive integer");
  if (version === "v1") {
    refuseV2Only(body.scrapeOptions);
    withV1Defaults(body);
  }
  const { step, pipeline, warnings } = readStep("crawl", body, version) as { step: Extract<Step, { kind: "crawl" }>; pipeline: Pipeline; warnings: string[] };
  return { request: step.body, ...(maxConcurrency ? { maxConcurrency } : {}), ...warningOf(warnings), pipeline };
}

/** POST /v2/map; a threatProtection override is checked like a scrape's. */
export function readMapCall(raw: unknown, version: "v1" | "v2" = "v2"): MapCall {
  const body = asBody(raw);
  body.url = withScheme(body.url);
  const override = body.threatProtection;
  delete body.threatProtection;
  const { step, pipeline } = readStep("map", body, version) as { step: Extract<Step, { kind: "map" }>; pipeline: Pipeline };
  if (override === undefined) return { request: step.body, pipeline };
  const checked = readStep("scrape", { url: step.body.url, threatProtection: override }).step as Extract<Step, { kind: "scrape" }>;
  return { request: step.body, ...(checked.body.threatProtection ? { threatProtection: checked.body.threatProtection } : {}), pipeline };
}

export interface ExtractCall {
  request: ExtractRequest;
  urls: string[];
  /** Only when ignoreInvalidURLs is true: the entries left out (an empty list when none). */
  invalidURLs?: string[];
  /** What the pipeline language warns about in the body (the v1 forms mapped to v2, …). */
  warning?: string;
  pipeline: Pipeline;
}

/**
 * POST /v1/extract and /v2/extract (SPEC.md Extract request). ignoreInvalidURLs defaults to false
 * on v1 (invalid entries fail the request with 400) and to true on v2. v2's `limit` caps the pages.
 */
export function readExtractCall(raw: unknown, version: "v1" | "v2"): ExtractCall {
  const body = asBody(raw);
  if (body.ignoreInvalidURLs === undefined && version === "v2") body.ignoreInvalidURLs = true;
  if (version === "v1") {
    refuseV2Only(body.scrapeOptions);
    withV1Defaults(body);
  }
  let invalidURLs: string[] | undefined;
  if (Array.isArray(body.urls) && body.urls.every((u) => typeof u === "string")) {
    // One rule (extractUrlProblem) either way: ignoreInvalidURLs only says whether an invalid entry is listed and skipped or fails the request.
    const sorted = sortExtractUrls(body.urls as string[]);
    if (body.ignoreInvalidURLs === true) {
      invalidURLs = sorted.invalid;
      if (sorted.valid.length === 0) throw new ScrapelineError("invalid-input", "Bad request: no valid URL in urls");
      body.urls = sorted.valid;
    } else if (sorted.invalid.length > 0) {
      const listed = sorted.invalid.map((u) => `${JSON.stringify(u)} (${extractUrlProblem(u)})`).join(", ");
      throw new ScrapelineError("invalid-input", `Bad request: invalid URL${sorted.invalid.length === 1 ? "" : "s"} in urls: ${listed}; write absolute http(s) URLs, with * globs only in the path, or set ignoreInvalidURLs: true to skip invalid entries`);
    }
  }
  const { step, pipeline, warnings } = readStep("extract", body, version) as { step: Extract<Step, { kind: "extract" }>; pipeline: Pipeline; warnings: string[] };
  return { request: step.body, urls: step.body.urls as string[], ...(invalidURLs ? { invalidURLs } : {}), ...warningOf(warnings), pipeline };
}

function isHttpUrl(value: unknown): value is string {
  if (typeof value !== "string") return false;
  try {
    const u = new URL(value);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}

/** A v1 body whose scrape options are at its top level (scrape, batch scrape): v1 forms only, v1's defaults. */
function v1ScrapeOptions(body: Body): void {
  refuseV2Only(body);
  for (const [key, value] of Object.entries(V1_SCRAPE_OPTION_DEFAULTS)) if (body[key] === undefined) body[key] = value;
}

/** A v1 request's scrape options get v1's defaults where they differ from v2's (the pipeline language's). */
export function withV1Defaults(body: Body): void {
  if (body.scrapeOptions !== undefined && (body.scrapeOptions === null || typeof body.scrapeOptions !== "object" || Array.isArray(body.scrapeOptions))) return;
  const options: Body = { ...((body.scrapeOptions as Body | undefined) ?? {}) };
  for (const [key, value] of Object.entries(V1_SCRAPE_OPTION_DEFAULTS)) if (options[key] === undefined) options[key] = value;
  body.scrapeOptions = options;
}

export function warningOf(warnings: readonly string[]): { warning?: string } {
  return warnings.length > 0 ? { warning: warnings.join("; ") } : {};
}

/** POST /v2/crawl/params-preview: a url and a prompt, nothing else (the client-only keys of every body are dropped). */
export function readPreviewCall(body: unknown): { url: string; prompt: string } {
  const raw = body !== null && typeof body === "object" && !Array.isArray(body) ? withoutClientKeys(body as Record<string, unknown>, "other") : undefined;
  if (!raw) throw new ScrapelineError("invalid-input", "Bad request: the body must be a JSON object");
  const unknown = Object.keys(raw).filter((k) => k !== "url" && k !== "prompt");
  if (unknown.length > 0) throw new ScrapelineError("invalid-input", `Unrecognized key in body -- ${unknown.join(", ")} (params-preview takes url and prompt)`);
  if (typeof raw.url !== "string" || typeof raw.prompt !== "string") throw new ScrapelineError("invalid-input", "Bad request: url and prompt are required strings");
  return { url: raw.url, prompt: raw.prompt };
}
