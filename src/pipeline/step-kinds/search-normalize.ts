import type { ScrapeOptions, SearchCategory, SearchRequest, SearchSource, Step } from "../../core/index.js";
import * as D from "../defaults.js";
import { isObj, type Obj } from "../sites.js";
import type { Path } from "../yaml/index.js";

type StepCommon = Omit<Extract<Step, { kind: "search" }>, "kind" | "body">;

/**
 * A schema-valid `search:` body to the normalized request: sources and categories in one form,
 * defaults applied, and scrape options only when the file asks for formats (the service scrapes
 * search results only then). The pipeline's default scrape options apply to those scrapes.
 */
export function normalizeSearchStep(common: StepCommon, body: Obj, scrapeOptionsOf: (own: Obj, path: Path) => ScrapeOptions, path: Path): Step {
  const { sources, categories, scrapeOptions, ...rest } = structuredClone(body);
  const request: Obj = { ...rest };
  for (const [key, value] of Object.entries(D.DEFAULT_SEARCH)) if (!(key in request)) request[key] = structuredClone(value);
  const rawSources = Array.isArray(sources) ? sources : D.DEFAULT_SEARCH_SOURCES;
  request.sources = rawSources.map((s): SearchSource => (typeof s === "string" ? { type: s as SearchSource["type"] } : (s as SearchSource)));
  if (Array.isArray(categories)) request.categories = categories.map((c) => (typeof c === "string" ? c : (c as Obj).type) as SearchCategory);
  const own = isObj(scrapeOptions) ? scrapeOptions : undefined;
  if (own && Array.isArray(own.formats) && own.formats.length > 0) {
    request.scrapeOptions = scrapeOptionsOf(own, [...path, "scrapeOptions"]);
  }
  return { ...common, kind: "search", body: request as unknown as SearchRequest };
}
