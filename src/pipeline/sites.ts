import type { Path } from "./yaml/index.js";

export type Obj = Record<string, unknown>;

export function isObj(value: unknown): value is Obj {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function stepsOf(data: unknown): Array<{ index: number; step: Obj }> {
  const steps = isObj(data) && Array.isArray(data.steps) ? data.steps : [];
  return steps.flatMap((step, index) => (isObj(step) ? [{ index, step }] : []));
}

/** Every place in a pipeline that holds scrape options, with its path. */
export function scrapeOptionSites(data: unknown): Array<{ path: Path; options: Obj }> {
  const sites: Array<{ path: Path; options: Obj }> = [];
  if (isObj(data) && isObj(data.defaults) && isObj(data.defaults.scrapeOptions)) {
    sites.push({ path: ["defaults", "scrapeOptions"], options: data.defaults.scrapeOptions });
  }
  for (const { index, step } of stepsOf(data)) {
    if (isObj(step.scrape)) sites.push({ path: ["steps", index, "scrape"], options: step.scrape });
    for (const kind of ["crawl", "extract", "search"] as const) {
      const body = step[kind];
      if (isObj(body) && isObj(body.scrapeOptions)) sites.push({ path: ["steps", index, kind, "scrapeOptions"], options: body.scrapeOptions });
    }
    if (isObj(step.parse)) sites.push({ path: ["steps", index, "parse"], options: step.parse });
  }
  return sites;
}

/** The `type` of a format item in either form ("markdown" or {type: markdown}). */
export function formatType(item: unknown): string | undefined {
  if (typeof item === "string") return item;
  if (isObj(item) && typeof item.type === "string") return item.type;
  return undefined;
}
