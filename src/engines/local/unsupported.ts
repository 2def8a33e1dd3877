import type { ScrapeOptions } from "../../core/index.js";
import { ScrapelineError } from "../../core/index.js";

/**
 * Options the local engine cannot honour yet, each named with what would: a clear error instead
 * of a silently missing field.
 */
export function assertSupported(options: ScrapeOptions, url: string): void {
  const problems: string[] = [];
  if (options.actions?.length) problems.push("page actions need a browser");
  if (options.waitFor > 0) problems.push("waitFor needs a browser");
  for (const format of options.formats) {
    if (format.type === "screenshot") problems.push("the screenshot format needs a browser");
    if (format.type === "changeTracking") problems.push("the changeTracking format needs change tracking");
  }
  if (problems.length > 0) {
    throw new ScrapelineError(
      "unsupported",
      `the local engine cannot do this yet: ${problems.join("; ")}. Use engine: firecrawl (the hosted or self-hosted service) for these options.`,
      { url },
    );
  }
}
