import type { Reporter } from "../reporter.js";
import { isObj, stepsOf } from "../sites.js";
import { fieldIn } from "../yaml/index.js";

/** The rules of search bodies that JSON Schema cannot say clearly. */
export function checkSearchSteps(data: unknown, report: Reporter): void {
  for (const { index, step } of stepsOf(data)) {
    const body = step.search;
    if (!isObj(body)) continue;
    const path = ["steps", index, "search"];
    if (body.includeDomains !== undefined && body.excludeDomains !== undefined) {
      report.error([...path, "excludeDomains"], {
        code: "conflicting-keys",
        at: "key",
        message: `includeDomains and excludeDomains are both set in ${fieldIn(path, data)}`,
        hint: "keep one: includeDomains keeps only those sites, excludeDomains drops those sites",
      });
    }
    const options = body.scrapeOptions;
    if (isObj(options) && !(Array.isArray(options.formats) && options.formats.length > 0)) {
      report.warn([...path, "scrapeOptions"], {
        code: "search-not-scraped",
        at: "key",
        message: `results of ${fieldIn(path, data)} are not scraped: scrapeOptions has no formats`,
        hint: "add formats (e.g. formats: [markdown]) to scrape each result, or remove scrapeOptions",
      });
    }
  }
}
