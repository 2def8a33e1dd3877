import type { SessionCheck, SessionHandle, SessionSpec } from "../../core/index.js";

/** What a loaded page or a discovery request ended on, as judged for an expired login. */
export interface SessionAnswer {
  /** The URL asked for. */
  url: string;
  /** Where it ended, after redirects. */
  finalUrl: string;
  status: number;
  /** It showed the session's expiredWhen check. */
  expiredShown: boolean;
}

/**
 * Why an answer shows its session expired: it showed expiredWhen on the session's own site
 * ("shown"), or answered 401 or landed on the login page ("login"); undefined when it did not.
 */
export function expiryOf(answer: SessionAnswer, spec: SessionSpec, session: SessionHandle): "shown" | "login" | undefined {
  const login = where(spec.url);
  // The login page itself, asked for on purpose, shows the sign-in form: that is no expiry.
  const asked = where(answer.url) !== login;
  if (answer.expiredShown && asked && onSessionSite(answer.finalUrl, spec, session)) return "shown";
  if (answer.status === 401) return "login";
  return login !== undefined && where(answer.finalUrl) === login && asked ? "login" : undefined;
}

/** How an expiry seen again right after a fresh login is told: `still showed expiredWhen {…} of session "members"`. */
export function describeExpiry(why: "shown" | "login", spec: SessionSpec): string {
  return why === "shown" ? `still showed expiredWhen ${describeCheck(spec.expiredWhen!)} of session "${spec.name}"` : `still led to the login page of session "${spec.name}"`;
}

/**
 * A page of the session's own site: on the login page's host, or on a host the session's cookies
 * go to. Pages elsewhere (a link to another site) are never judged by expiredWhen.
 */
function onSessionSite(url: string, spec: SessionSpec, session: SessionHandle): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (host === new URL(spec.url).hostname.toLowerCase()) return true;
  return session.state().cookies.some((c) => {
    const domain = c.domain.toLowerCase();
    if (!domain.startsWith(".")) return host === domain;
    return host === domain.slice(1) || host.endsWith(domain);
  });
}

/** `{selector: "form#login"}` as written in the file. */
function describeCheck(check: SessionCheck): string {
  const [key, value] = Object.entries(check)[0] ?? ["", ""];
  return `{${key}: ${JSON.stringify(value)}}`;
}

function where(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return undefined;
  }
}
