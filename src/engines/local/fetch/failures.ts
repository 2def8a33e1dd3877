import { ScrapelineError } from "../../../core/index.js";
import type { Deadline } from "./deadline.js";

const TIMEOUT_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "UND_ERR_CONNECT_TIMEOUT", "ETIMEDOUT"]);
const TLS_CODE = /CERT|SELF_SIGNED|UNABLE_TO_|ERR_TLS_|ERR_SSL_|EPROTO/;
const NO_ROUTE_CODES = new Set(["EHOSTUNREACH", "ENETUNREACH", "EHOSTDOWN"]);

/** How a host could not be reached at all: its name does not resolve, it refuses connections, or no route leads to it. */
export type HostDownReason = "dns" | "refused" | "no-route";

/**
 * A network error that says the host is down, not that an exchange with it went wrong: nothing
 * else on the same host and port can succeed in this run either.
 */
export class HostDownError extends ScrapelineError {
  readonly reason: HostDownReason;
  constructor(reason: HostDownReason, message: string, details: { cause?: unknown; url?: string } = {}) {
    super("network", message, details);
    this.reason = reason;
  }
}

/** Whether `error` says its URL's host cannot be reached at all: a name that does not resolve, a refused connection, no route, or an address the network policy refuses. */
export function isHostDown(error: unknown): error is ScrapelineError {
  return error instanceof HostDownError || (error instanceof ScrapelineError && error.kind === "blocked");
}

/** The URL with any password masked, fit for messages and error details. */
export function redactUrl(href: string): string {
  try {
    const url = new URL(href);
    if (!url.password) return url.href;
    url.password = "***";
    return url.href;
  } catch {
    return href;
  }
}

/** The first `code` found on the error or along its cause chain. */
export function errorCode(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return undefined;
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = errorCode(error);
  return code && !message.includes(code) ? `${message} (${code})` : message;
}

export interface FailureContext {
  /** Redacted URL of the hop that failed. */
  url: string;
  deadline: Deadline;
  timeoutMs: number;
  /** The proxy that carried the request, if one did. */
  proxy?: URL;
}

/**
 * Turns whatever a hop threw into a ScrapelineError: the deadline and the caller's abort win
 * over the error they caused, then timeouts, TLS failures and bad arguments by code, and the
 * rest is a network error carrying its cause.
 */
export function toFetchError(error: unknown, context: FailureContext): ScrapelineError {
  const { url, deadline } = context;
  if (deadline.reason === "cancelled") return new ScrapelineError("cancelled", `request to ${url} was cancelled`, { cause: error, url });
  if (deadline.reason === "timeout") {
    return new ScrapelineError("timeout", `${url} did not complete within ${context.timeoutMs} ms`, { cause: error, url });
  }
  if (error instanceof ScrapelineError) return error;
  if (context.proxy) return throughProxy(error, url, context.proxy);
  const code = errorCode(error) ?? "";
  if (TIMEOUT_CODES.has(code)) return new ScrapelineError("timeout", `${url} timed out: ${describe(error)}`, { cause: error, url });
  if (TLS_CODE.test(code)) {
    return new ScrapelineError("network", `TLS failure for ${url}: ${describe(error)}; set skipTlsVerification: true if you trust this host`, { cause: error, url });
  }
  if (code === "ECONNREFUSED") return new HostDownError("refused", `could not fetch ${url}: connection refused by ${hostOf(url)}`, { cause: error, url });
  if (NO_ROUTE_CODES.has(code)) return new HostDownError("no-route", `could not fetch ${url}: no route to ${hostOf(url)} (${code})`, { cause: error, url });
  if (code === "UND_ERR_INVALID_ARG") {
    return new ScrapelineError("invalid-input", `the request to ${url} was refused before sending: ${describe(error)}`, { cause: error, url });
  }
  return new ScrapelineError("network", `could not fetch ${url}: ${describe(error)}`, { cause: error, url });
}

/**
 * A failure of a request a proxy carried: said of the proxy (named by its address only, never its
 * credentials), since the target's own state is not known from here; never a "host down" of the target.
 */
function throughProxy(error: unknown, url: string, proxy: URL): ScrapelineError {
  const shown = `${proxy.protocol}//${proxy.host}`;
  const code = errorCode(error) ?? "";
  const message = error instanceof Error ? error.message : String(error);
  if (TIMEOUT_CODES.has(code)) return new ScrapelineError("timeout", `${url} timed out through the proxy ${shown}: ${describe(error)}`, { cause: error, url });
  if (/\(407\)/.test(message)) return new ScrapelineError("network", `the proxy ${shown} refused its credentials (HTTP 407) for ${url}`, { cause: error, url });
  if (code === "ECONNREFUSED" || NO_ROUTE_CODES.has(code) || code === "ENOTFOUND") return new ScrapelineError("network", `could not reach the proxy ${shown} for ${url}: ${describe(error)}`, { cause: error, url });
  return new ScrapelineError("network", `could not fetch ${url} through the proxy ${shown}: ${describe(error)}`, { cause: error, url });
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * The site answered a block or challenge page instead of the page asked for: a failed page, never
 * stored, compared or billed. `vendor` names who blocked it.
 */
export class BlockedPageError extends ScrapelineError {
  readonly vendor: string;
  constructor(vendor: string, details: { url: string; status: number; finalUrl?: string }) {
    const shown = details.finalUrl && details.finalUrl !== details.url ? `${details.url} (at ${details.finalUrl})` : details.url;
    super("blocked-page", `blocked by ${vendor}: HTTP ${details.status} from ${shown}`, { url: details.url, status: details.status });
    this.vendor = vendor;
  }
}
