import type { SessionCheck } from "../../core/index.js";
import { htmlText } from "./html/index.js";
import { parseHtml } from "./html/parse.js";
import { selectAll } from "./html/select.js";

/**
 * Whether a loaded page shows `check` (a session's expiredWhen): its final URL matches
 * urlMatches, its text contains textContains, or an element of its HTML matches selector. The
 * HTML is the page as loaded (after scripts in the browser). A selector that does not parse, or a
 * page that is not HTML, shows nothing.
 */
export function pageShows(check: SessionCheck, page: { url: string; html?: string; text?: string }): boolean {
  if (check.urlMatches !== undefined) return new RegExp(check.urlMatches).test(page.url);
  if (check.textContains !== undefined) {
    const text = page.text ?? (page.html !== undefined ? htmlText(page.html) : "");
    return collapse(text).includes(collapse(check.textContains));
  }
  if (check.selector !== undefined && page.html !== undefined) {
    try {
      return selectAll(parseHtml(page.html, { allAttributes: true }).root, check.selector).length > 0;
    } catch {
      return false;
    }
  }
  return false;
}

function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
