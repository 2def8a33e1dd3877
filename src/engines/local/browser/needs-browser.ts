import type { ScrapeOptions } from "../../../core/index.js";

/** The pipeline's `engine.browser`: use a browser when a scrape needs one, always, or never. */
export type BrowserMode = "auto" | "always" | "never";

/** What in `options` needs a browser, in words (empty when plain HTTP will do). */
export function browserNeeds(options: ScrapeOptions): string[] {
  const needs: string[] = [];
  if (options.actions?.length) needs.push("page actions");
  if (options.waitFor > 0) needs.push("waitFor");
  if (options.formats.some((f) => f.type === "screenshot")) needs.push("the screenshot format");
  if (options.mobile) needs.push("mobile emulation");
  return needs;
}

/** Whether a scrape goes through the browser under `mode`. */
export function usesBrowser(options: ScrapeOptions, mode: BrowserMode): boolean {
  if (mode === "always") return true;
  if (mode === "never") return false;
  return browserNeeds(options).length > 0;
}
