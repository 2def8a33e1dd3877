import type { DiscoveryResponse, DiscoveryWatch, SessionHandle, SessionSpec } from "../../core/index.js";
import { ScrapelineError } from "../../core/index.js";
import type { RunContext } from "../context.js";
import { describeExpiry, expiryOf } from "./session-expiry.js";
import { runSessions } from "./session-page.js";

/** What a logged-in discovery is given: the session to read with, and the watch its requests are reported to. */
export interface DiscoveryExtras {
  session: SessionHandle;
  watch: DiscoveryWatch;
}

interface Pass<T> {
  result?: T;
  error?: unknown;
  expired?: { url: string; why: "shown" | "login" };
}

/**
 * Discovery logged in (a crawl's robots.txt and sitemaps, a map's robots.txt, sitemaps and
 * pages). A request of it that lands on the session's login page, answers 401, or shows the
 * session's expiredWhen on its own site shows that the kept login expired: the session logs in
 * again (once, shared with the pages that saw it too) and the discovery runs again with the fresh
 * cookies. Showing it again right after the fresh login fails, naming the session.
 */
export async function discoverInSession<T>(ctx: RunContext, name: string, signal: AbortSignal, discover: (extras: DiscoveryExtras) => Promise<T>): Promise<T> {
  const sessions = runSessions(ctx);
  const spec = sessions.spec(name);
  const session = await sessions.open(name, signal);
  const first = await watchedPass(spec, session, discover);
  // A discovery stopped (the step's timeout, the run cancelled) is not tried again.
  if (first.expired === undefined || signal.aborted) return outcome(first);
  const renewed = await sessions.renew(session, signal);
  const again = await watchedPass(spec, renewed, discover);
  if (again.expired === undefined) return outcome(again);
  const { url, why } = again.expired;
  throw new ScrapelineError("bad-content", `${url}, read to discover the site's URLs, ${describeExpiry(why, spec)} right after a fresh login: the login does not give access to it`, { url });
}

/** One run of the discovery, with the first request that showed the login expired (a discovery that threw included). */
async function watchedPass<T>(spec: SessionSpec, session: SessionHandle, discover: (extras: DiscoveryExtras) => Promise<T>): Promise<Pass<T>> {
  const seen: DiscoveryResponse[] = [];
  const watch: DiscoveryWatch = { ...(spec.expiredWhen ? { expiredWhen: spec.expiredWhen } : {}), seen: (response) => seen.push(response) };
  const pass: Pass<T> = {};
  try {
    pass.result = await discover({ session, watch });
  } catch (error) {
    pass.error = error;
  }
  for (const response of seen) {
    const why = expiryOf(response, spec, session);
    if (why === undefined) continue;
    pass.expired = { url: response.url, why };
    break;
  }
  return pass;
}

function outcome<T>(pass: Pass<T>): T {
  if ("error" in pass) throw pass.error;
  return pass.result as T;
}
