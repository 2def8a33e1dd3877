import type { SessionHandle } from "../../../core/index.js";
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
    fetch: (request) => gate.fetch({ ...request, cookies: request.cookies ?? cookies }),
    close: () => Promise.resolve(),
  };
}
