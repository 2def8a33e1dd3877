import ipaddr from "ipaddr.js";
import type { Diagnostic, Pipeline, Step } from "../../core/index.js";
import type { LoadResult } from "../../pipeline/index.js";
import { extractionSettings } from "../common/index.js";

/** The variable naming the SearXNG instance the local engine searches with. */
const SEARXNG_URL = "SCRAPELINE_SEARXNG_URL";

export interface ReadinessOptions {
  env: Readonly<Record<string, string | undefined>>;
  /** The run would have --allow-private-network. */
  allowPrivateNetwork?: boolean;
}

type Locate = NonNullable<LoadResult["locate"]>;
type Path = Array<string | number>;

/**
 * What a valid file would surely fail at when run here as it stands, as warnings at the line
 * that causes it: on the local engine, a loopback or private address without
 * --allow-private-network, a search with no SearXNG, and work that needs a model (an agent, a
 * prompt without a schema, the summary format) with none configured. validate --strict fails on them.
 */
export function readinessWarnings(pipeline: Pipeline, locate: Locate, options: ReadinessOptions): Diagnostic[] {
  if (pipeline.engine.kind !== "local") return [];
  const found: Diagnostic[] = [];
  // The file may say it another way than the normalized step (url for urls: [url]): the first path it has, else the step.
  const where = (paths: Path[]) => paths.map((p) => locate(p)).find((span) => span !== undefined) ?? { line: 1, column: 1, length: 1 };
  const warn = (paths: Path[], code: string, message: string, hint: string) => found.push({ file: pipeline.file, ...where(paths), severity: "warning", code, message, hint });
  const privateAllowed = options.allowPrivateNetwork || pipeline.allowPrivateNetwork;
  const model = modelProblem(pipeline, options.env);
  pipeline.steps.forEach((step, index) => {
    const at = (...rest: Path): Path[] => [["steps", index, step.kind, ...rest], ["steps", index, step.kind], ["steps", index]];
    if (!privateAllowed) {
      for (const { url, path } of literalUrls(step)) {
        const range = privateRange(url);
        if (range) warn([...(path[0] === "urls" && path[1] === 0 ? [["steps", index, step.kind, "url"]] : []), ...at(...path)], "private-address", `${url} is a ${range} address, which the local engine does not fetch`, "run it with --allow-private-network, or set allowPrivateNetwork: true in the file");
      }
    }
    if (step.kind === "search" && !options.env[SEARXNG_URL]?.trim()) {
      warn(at(), "no-search-provider", `search step "${step.id}" needs a search provider, and ${SEARXNG_URL} is not set`, `set ${SEARXNG_URL} to a SearXNG instance (e.g. http://127.0.0.1:8888), or run on the firecrawl engine`);
    }
    const need = model === undefined ? undefined : modelNeed(step);
    if (need && model) warn(at(...need.path), "no-model", `${need.what} in step "${step.id}" needs a model: ${model.problem}`, model.hint);
  });
  return found;
}

/** Why no model can be used here, or undefined when one is configured. */
function modelProblem(pipeline: Pipeline, env: ReadinessOptions["env"]): { problem: string; hint: string } | undefined {
  const { baseUrlEnv, modelEnv } = pipeline.llm;
  const hint = `set ${baseUrlEnv} to an OpenAI-compatible endpoint and ${modelEnv} to the model's name`;
  if (pipeline.extractor === "deterministic") return { problem: "the pipeline has extractor: deterministic", hint: "set extractor: auto (or llm) and configure a model" };
  try {
    return extractionSettings(pipeline, env).llm ? undefined : { problem: `${baseUrlEnv} is not set`, hint };
  } catch (error) {
    return { problem: (error as Error).message, hint };
  }
}

/** What in a step asks for a model, and where; undefined when nothing does. */
function modelNeed(step: Step): { what: string; path: Path } | undefined {
  if (step.kind === "agent") return { what: "an agent", path: [] };
  if (step.kind === "extract" && step.body.prompt !== undefined && step.body.schema === undefined) return { what: "a prompt without a schema", path: ["prompt"] };
  const body = step.body as { formats?: unknown; scrapeOptions?: { formats?: unknown } };
  const inBody = Array.isArray(body.formats);
  const formats: unknown[] = inBody ? (body.formats as unknown[]) : Array.isArray(body.scrapeOptions?.formats) ? (body.scrapeOptions!.formats as unknown[]) : [];
  const index = formats.findIndex((f) => f === "summary" || (typeof f === "object" && f !== null && (f as { type?: unknown }).type === "summary"));
  if (index < 0) return undefined;
  return { what: "the summary format", path: inBody ? ["formats", index] : ["scrapeOptions", "formats", index] };
}

/** The URLs a step names in the file itself (`url`, `urls: [..]`), with their path in its body. */
function literalUrls(step: Step): Array<{ url: string; path: Path }> {
  const body = step.body as { url?: unknown; urls?: unknown };
  const urls: Array<{ url: string; path: Path }> = [];
  if (typeof body.url === "string") urls.push({ url: body.url, path: ["url"] });
  if (Array.isArray(body.urls)) body.urls.forEach((url, i) => typeof url === "string" && urls.push({ url, path: ["urls", i] }));
  return urls;
}

/** "loopback", "private", … for a URL whose host is such an address (or localhost); undefined for a public or named host. */
function privateRange(url: string): string | undefined {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, "");
  } catch {
    return undefined;
  }
  if (host === "localhost" || host.endsWith(".localhost")) return "loopback";
  if (!ipaddr.isValid(host)) return undefined;
  const range = ipaddr.process(host).range();
  return range === "unicast" ? undefined : range;
}
