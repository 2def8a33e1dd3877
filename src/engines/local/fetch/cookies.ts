import type { SessionCookie, SessionHandle } from "../../../core/index.js";

/** What the gate asks of a session at each hop: the Cookie header for a URL, and where Set-Cookie goes. */
export interface CookieJar {
  header(url: URL): string | undefined;
  store(url: URL, setCookies: readonly string[]): void;
}

/** A session's cookies as the gate uses them: sent to the hosts they belong to, updated by every Set-Cookie. */
export function sessionJar(session: SessionHandle, now: () => number = Date.now): CookieJar {
  return {
    header: (url) => cookieHeader(session.state().cookies, url, now()),
    store: (url, setCookies) => {
      const parsed = setCookies.map((line) => parseSetCookie(line, url, now())).filter((c): c is SessionCookie => c !== undefined);
      if (parsed.length > 0) session.update(parsed);
    },
  };
}

/** Whether a cookie of `domain` goes to `host`: the host itself, or (leading dot) the domain and its subdomains. */
export function domainMatches(domain: string, host: string): boolean {
  const h = host.toLowerCase();
  if (!domain.startsWith(".")) return h === domain.toLowerCase();
  const base = domain.slice(1).toLowerCase();
  return h === base || h.endsWith(`.${base}`);
}

function pathMatches(cookiePath: string, requestPath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith("/") || requestPath[cookiePath.length] === "/";
}

/** The Cookie header for `url` (RFC 6265 §5.4: longer paths first), or undefined when none applies. */
export function cookieHeader(cookies: readonly SessionCookie[], url: URL, nowMs: number): string | undefined {
  const secure = url.protocol === "https:";
  const chosen = cookies
    .filter((c) => domainMatches(c.domain, url.hostname) && pathMatches(c.path || "/", url.pathname || "/") && (!c.secure || secure || isLoopback(url.hostname)))
    .filter((c) => c.expires < 0 || c.expires * 1000 > nowMs)
    .sort((a, b) => (b.path || "/").length - (a.path || "/").length);
  return chosen.length === 0 ? undefined : chosen.map((c) => `${c.name}=${c.value}`).join("; ");
}

/** One Set-Cookie line as a cookie of `url` (RFC 6265 §5.2), or undefined when it is malformed or names a domain `url` may not set. */
export function parseSetCookie(line: string, url: URL, nowMs: number): SessionCookie | undefined {
  const [pair, ...attributes] = line.split(";");
  const eq = pair?.indexOf("=") ?? -1;
  if (!pair || eq <= 0) return undefined;
  const cookie: SessionCookie = { name: pair.slice(0, eq).trim(), value: pair.slice(eq + 1).trim(), domain: url.hostname, path: defaultPath(url), expires: -1, httpOnly: false, secure: false, sameSite: "Lax" };
  let maxAge: number | undefined;
  for (const attribute of attributes) {
    const at = attribute.indexOf("=");
    const key = (at === -1 ? attribute : attribute.slice(0, at)).trim().toLowerCase();
    const value = at === -1 ? "" : attribute.slice(at + 1).trim();
    if (key === "domain" && value) {
      const domain = `.${value.replace(/^\./, "").toLowerCase()}`;
      if (!domainMatches(domain, url.hostname)) return undefined;
      cookie.domain = domain;
    } else if (key === "path" && value.startsWith("/")) cookie.path = value;
    else if (key === "max-age" && /^-?\d+$/.test(value)) maxAge = Number(value);
    else if (key === "expires") {
      const time = Date.parse(value);
      if (!Number.isNaN(time)) cookie.expires = Math.floor(time / 1000);
    } else if (key === "secure") cookie.secure = true;
    else if (key === "httponly") cookie.httpOnly = true;
    else if (key === "samesite") cookie.sameSite = value.toLowerCase() === "strict" ? "Strict" : value.toLowerCase() === "none" ? "None" : "Lax";
  }
  // Max-Age wins over Expires; zero or less removes the cookie (expires in the past).
  if (maxAge !== undefined) cookie.expires = maxAge <= 0 ? 0 : Math.floor(nowMs / 1000) + maxAge;
  return cookie;
}

/** `updates` merged into `cookies`: one per name, domain and path; expired ones removed. */
export function mergeCookies(cookies: readonly SessionCookie[], updates: readonly SessionCookie[], nowMs: number): SessionCookie[] {
  const key = (c: SessionCookie) => `${c.name}\n${c.domain.toLowerCase()}\n${c.path}`;
  const merged = new Map(cookies.map((c) => [key(c), c]));
  for (const c of updates) merged.set(key(c), c);
  return [...merged.values()].filter((c) => c.expires < 0 || c.expires * 1000 > nowMs);
}

function defaultPath(url: URL): string {
  const path = url.pathname;
  if (!path.startsWith("/") || path.lastIndexOf("/") === 0) return "/";
  return path.slice(0, path.lastIndexOf("/"));
}

/** Browsers send Secure cookies to http://localhost and loopback addresses too. */
function isLoopback(host: string): boolean {
  return host === "localhost" || host.startsWith("127.") || host === "[::1]";
}
