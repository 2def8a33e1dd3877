import { sha256, sortedJson } from "./fixture-files.js";

/** Query parameters whose values are credentials: left out of a fixture's keys. */
const SECRET_PARAM = /(^|[-_.])(api[-_]?key|key|token|access[-_]?token|secret|password|passwd|pwd|auth|authorization|signature|sig|session|sessionid|sid)$/i;

/** Response headers a fixture does not keep: cookies a site set (a session's state) and the clock. */
const DROPPED_HEADERS = new Set(["set-cookie", "set-cookie2", "date", "authorization", "proxy-authorization", "www-authenticate"]);

/** A URL without credentials: no user or password, secret-looking query values replaced. */
export function safeUrl(href: string): string {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return href;
  }
  url.username = "";
  url.password = "";
  for (const name of [...url.searchParams.keys()]) if (SECRET_PARAM.test(name)) url.searchParams.set(name, "REDACTED");
  return url.href;
}

/** The key of a request in a fixture: method and URL, and the hash of the body it sent, when it sent one. */
export function requestKey(method: string, url: string, body?: string): string {
  return `${method} ${safeUrl(url)}${body === undefined ? "" : ` #${sha256(body).slice(0, 16)}`}`;
}

/** The key of a model call or a search: the hash of its request, keys sorted. */
export function hashKey(request: unknown): string {
  return sha256(sortedJson(request));
}

export function keptHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !DROPPED_HEADERS.has(name.toLowerCase())));
}

/**
 * The key of a request to the firecrawl service: the hash of its method, path and body (a
 * multipart upload's random boundary taken out). Never its headers: the API key is there.
 */
export function serviceKey(request: { method: string; url: URL; headers: Record<string, string>; body?: string | Uint8Array }): string {
  const url = new URL(safeUrl(request.url.href));
  let body = request.body === undefined ? "" : typeof request.body === "string" ? request.body : Buffer.from(request.body).toString("latin1");
  const boundary = /boundary=([^;\s]+)/.exec(request.headers["content-type"] ?? "")?.[1];
  if (boundary) body = body.split(boundary).join("");
  return sha256(`${request.method} ${url.pathname}${url.search}\n${body}`);
}

/** A request to the service as a message names it: method, path and the start of its key. */
export function describeServiceRequest(request: { method: string; url: URL }, key: string): string {
  const url = new URL(safeUrl(request.url.href));
  return `${request.method} ${url.pathname}${url.search} (request ${key.slice(0, 12)})`;
}
