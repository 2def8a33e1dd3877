import { isAbsolute, normalize } from "node:path";
import type { ParseRequest, ScrapeOptions } from "../../core/index.js";
import { DEFAULT_PARSE } from "../defaults.js";
import type { Reporter } from "../reporter.js";
import { formatType, isObj, stepsOf, type Obj } from "../sites.js";
import type { Path } from "../yaml/index.js";

/** The scrape options a parse step takes (the others need a browser or a site); pipeline defaults of other keys do not reach it. */
const PARSE_OPTION_KEYS = ["formats", "onlyMainContent", "includeTags", "excludeTags", "timeout", "parsers", "removeBase64Images", "blockAds"];

/** Formats a document file cannot give. */
const PAGE_ONLY_FORMATS = new Set(["screenshot", "screenshot@fullPage"]);

/** Scrape options that need a page in a browser (or a place to fetch from): POST /v2/parse answers them 400. */
const BROWSER_OPTIONS = new Set(["actions", "waitFor", "location", "mobile"]);

/**
 * The error for a key a parse step does not take, when it is one that needs a browser: said so
 * by name instead of the schema's plain "unknown key" (which lists the keys a parse step takes).
 */
export function parseKeyProblem(path: Path, key: string): { code: string; message: string; hint: string } | undefined {
  if (path.length !== 3 || path[0] !== "steps" || path[2] !== "parse" || !BROWSER_OPTIONS.has(key)) return undefined;
  return { code: "browser-option-in-parse", message: `${key} needs a page in a browser; a parse step converts files and cannot use it`, hint: `remove ${key} from the parse step (POST /v2/parse refuses it too)` };
}

/** A parse step's body with every default: its scrape options (pipeline defaults of the keys it takes) and its own. */
export function normalizeParse(body: Obj, pipelineDefaults: Obj, path: Path, report: Reporter, normalizeScrapeOptions: (own: Obj, inherited: Obj, path: Path, report: Reporter) => ScrapeOptions): ParseRequest {
  const { files, allowOutside, maxRows, maxFileSize, ...own } = body;
  const inherited = Object.fromEntries(Object.entries(pipelineDefaults).filter(([key]) => PARSE_OPTION_KEYS.includes(key)));
  const options = normalizeScrapeOptions(own, inherited, path, report);
  return {
    ...options,
    files: [...(files as string[])],
    allowOutside: (allowOutside as boolean | undefined) ?? DEFAULT_PARSE.allowOutside,
    maxRows: (maxRows as number | undefined) ?? DEFAULT_PARSE.maxRows,
    maxFileSize: (maxFileSize as number | undefined) ?? DEFAULT_PARSE.maxFileSize,
  };
}

/**
 * What the schema cannot say about parse steps: a path that leaves the pipeline's directory
 * (absolute, or climbing out with ..) without allowOutside, and formats only pages have.
 */
export function checkParseSteps(data: unknown, report: Reporter): void {
  for (const { index, step } of stepsOf(data)) {
    const body = step.parse;
    if (!isObj(body)) continue;
    if (body.allowOutside !== true && Array.isArray(body.files)) {
      body.files.forEach((file, i) => {
        if (typeof file !== "string") return;
        const normal = normalize(file.replace(/\\/g, "/"));
        if (isAbsolute(file) || normal === ".." || normal.startsWith("../")) {
          report.error(["steps", index, "parse", "files", i], {
            code: "file-outside",
            message: `${file} is outside the pipeline's directory`,
            hint: "move the file beside the pipeline, or set allowOutside: true",
          });
        }
      });
    }
    if (body.maxRows !== undefined && remoteEngine(data)) {
      report.warn(["steps", index, "parse", "maxRows"], { code: "local-only-option", message: "maxRows is applied by the local engine's spreadsheet reader; the firecrawl engine's service keeps its own limit", hint: "remove maxRows, or run this step on the local engine" });
    }
    if (Array.isArray(body.formats)) {
      body.formats.forEach((format, i) => {
        const type = formatType(format);
        if (type && PAGE_ONLY_FORMATS.has(type)) report.error(["steps", index, "parse", "formats", i], { code: "format-not-for-files", message: `format ${type} needs a page in a browser; a parse step cannot make it`, hint: "remove it from the parse step's formats (POST /v2/parse refuses it too)" });
      });
    }
  }
}

/** Whether the pipeline file names the firecrawl engine (`engine: firecrawl` or `engine: { kind: firecrawl }`). */
function remoteEngine(data: unknown): boolean {
  const engine = isObj(data) ? data.engine : undefined;
  return engine === "firecrawl" || (isObj(engine) && engine.kind === "firecrawl");
}
