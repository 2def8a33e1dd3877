import type { DiscoveryWatch } from "../../core/index.js";
import { decodeText, type FetchGate } from "./fetch/index.js";
import { pageShows } from "./session-check.js";

/**
 * The gate as a watched discovery sees it: every answer is reported to `watch` (where it ended,
 * its status, and whether an HTML answer shows the watch's expiredWhen check), so the runner can
 * tell a members' sitemap from the login page it was sent to. Requests that fail are not reported.
 */
export function gateWithWatch(gate: FetchGate, watch: DiscoveryWatch | undefined): FetchGate {
  if (!watch) return gate;
  return {
    fetch: async (request) => {
      const response = await gate.fetch(request);
      const contentType = response.headers["content-type"];
      // The page is read for expiredWhen only when there is one to look for.
      const expiredShown = watch.expiredWhen !== undefined && isHtml(contentType, response.body) && pageShows(watch.expiredWhen, { url: response.url, html: decodeText(response.body, contentType) });
      watch.seen({ url: request.url, finalUrl: response.url, status: response.status, expiredShown });
      return response;
    },
    // The shared gate stays open: it is the engine's.
    close: () => Promise.resolve(),
  };
}

/** An HTML answer: by its content type, or (none given) by how its body starts. */
function isHtml(contentType: string | undefined, body: Buffer): boolean {
  if (contentType) return /\b(?:text\/html|application\/xhtml\+xml)\b/i.test(contentType);
  return /^\s*(?:<!doctype html|<html)/i.test(body.subarray(0, 512).toString("latin1"));
}
