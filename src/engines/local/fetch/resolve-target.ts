import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { ScrapelineError } from "../../../core/index.js";
import type { AddressPolicy } from "./address-policy.js";
import { HostDownError, redactUrl } from "./failures.js";

/** A URL whose host has been resolved and whose every address passed the policy. */
export interface CheckedTarget {
  url: URL;
  /** The hostname as the connection sees it (IPv6 literals without brackets). */
  hostname: string;
  /** The addresses the connection may use; for IP literals, the literal itself. */
  addresses: string[];
  literal: boolean;
}

export interface TargetContext {
  policy: AddressPolicy;
  allowPrivateNetwork: boolean;
  resolve: (hostname: string) => Promise<string[]>;
  signal: AbortSignal;
}

/** The default resolver: every address the system resolver knows, in its order. */
export async function systemResolve(hostname: string): Promise<string[]> {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => a.address);
}

/** Parses a URL and refuses anything but http: and https:. */
export function parseHttpUrl(raw: string, base?: URL): URL {
  let url: URL;
  try {
    url = base ? new URL(raw, base) : new URL(raw);
  } catch (cause) {
    const shown = base ? redactUrl(base.href) : undefined;
    throw new ScrapelineError("invalid-input", `not a valid URL: ${JSON.stringify(raw.slice(0, 200))}`, { cause, ...(shown ? { url: shown } : {}) });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    const shown = url.protocol === "data:" || url.protocol === "javascript:" ? `${url.protocol}…` : redactUrl(url.href);
    throw new ScrapelineError("blocked", `${url.protocol} URLs are not fetched, only http: and https: (${shown})`, { url: shown });
  }
  return url;
}

/**
 * Resolves the host of `url` once and checks every answer. Any non-public answer blocks the
 * whole name (unless private networks are allowed); IP literals are checked the same way.
 */
export async function resolveTarget(url: URL, context: TargetContext): Promise<CheckedTarget> {
  const shown = redactUrl(url.href);
  const host = url.hostname;
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  const literal = isIP(bare) !== 0;
  const addresses = literal ? [bare] : await resolveName(bare, shown, context);
  if (!context.allowPrivateNetwork) {
    for (const address of addresses) {
      const reason = context.policy.blockedReason(address);
      if (reason) {
        const what = literal ? reason : `${bare} has a non-public address: ${reason}`;
        throw new ScrapelineError("blocked", `refused by the network policy: ${shown}: ${what} (use --allow-private-network to reach private networks)`, { url: shown });
      }
    }
  }
  return { url, hostname: bare, addresses, literal };
}

async function resolveName(hostname: string, shown: string, context: TargetContext): Promise<string[]> {
  let answers: string[];
  try {
    answers = await abortable(context.resolve(hostname), context.signal);
  } catch (cause) {
    if (context.signal.aborted) throw cause;
    const code = (cause as { code?: unknown }).code;
    throw new HostDownError("dns", `could not resolve host ${hostname}${typeof code === "string" ? ` (${code})` : ""}`, { cause, url: shown });
  }
  if (answers.length === 0) throw new HostDownError("dns", `could not resolve host ${hostname}: no addresses`, { url: shown });
  const bad = answers.find((a) => isIP(a) === 0);
  if (bad !== undefined) throw new ScrapelineError("network", `resolving ${hostname} gave ${JSON.stringify(bad)}, not an IP address`, { url: shown });
  return answers;
}

/** Settles with `promise`, or rejects with the signal's reason as soon as it aborts. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
