import type { ScrapeOptions } from "../../core/index.js";
import { ScrapelineError } from "../../core/index.js";

/**
 * Options the local engine cannot honour, each named with what would: a clear error instead
 * of a silently missing field. `browser: false` (the pipeline's `engine.browser: never`) makes
 * the options that need a browser errors too; mobile then only sends a phone's User-Agent.
 */
export function assertSupported(options: ScrapeOptions, url: string, browser = true): void {
  const problems: string[] = [];
  if (!browser) {
    if (options.actions?.length) problems.push("page actions need a browser");
    if (options.waitFor > 0) problems.push("waitFor needs a browser");
  }
  for (const format of options.formats) {
    if (format.type === "screenshot" && !browser) problems.push("the screenshot format needs a browser");
    if (format.type === "changeTracking") problems.push("the changeTracking format needs change tracking");
  }
  if (problems.length > 0) {
    const remedy = browser
      ? "Use engine: firecrawl (the hosted or self-hosted service) for these options."
      : "The pipeline sets engine.browser: never; set it to auto (or remove it) to let the local engine use Chromium.";
    throw new ScrapelineError("unsupported", `the local engine cannot do this${browser ? " yet" : ""}: ${problems.join("; ")}. ${remedy}`, { url });
  }
}
