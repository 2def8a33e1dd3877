import type { SessionHandle } from "../../../core/index.js";
import { isSignOutUrl, ScrapelineError } from "../../../core/index.js";
import { sessionJar } from "./cookies.js";
import type { FetchGate } from "./types.js";

/**
 * The gate as a session's discovery sees it (a crawl's robots.txt and sitemaps, a map's pages):
 * every request carries the session's cookies for its host and updates them with its Set-Cookie.
 * Closing it leaves the shared gate open.
 */
export function gateWithSession(gate: FetchGate, session: SessionHandle | undefined): FetchGate {
  if (!session) return gate;
  const cookies = sessionJar(session);
  return {
    fetch: (request) => {
      // Discovery never follows a link that would end the login it reads the site with.
      if (isSignOutUrl(request.url)) return Promise.reject(new ScrapelineError("blocked", `not read logged in: ${request.url} would sign the session out`, { url: request.url }));
      return gate.fetch({ ...request, cookies: request.cookies ?? cookies });
    },
    close: () => Promise.resolve(),
  };
}
