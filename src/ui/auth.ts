import { createHash, timingSafeEqual } from "node:crypto";

/** The key a request presents: `Authorization: Bearer <key>`, or Basic with the key as the password (what a browser's prompt sends). */
export function presentedKey(authorization: string | undefined): string | undefined {
  const header = authorization ?? "";
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (bearer) return bearer[1];
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!basic) return undefined;
  const decoded = Buffer.from(basic[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  const password = colon === -1 ? decoded : decoded.slice(colon + 1);
  return password === "" ? undefined : password;
}

/** Whether two keys are equal, in time that does not depend on where they differ. */
export function sameKey(given: string, expected: string): boolean {
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** The challenge that makes a browser ask for the key (any user name; the key as the password). */
export const CHALLENGE = 'Basic realm="scrapeline", charset="UTF-8"';

/** Loopback addresses and names: the only hosts the UI binds to without a key. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  return bare === "localhost" || bare === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

/**
 * Whether a request's Host header names a loopback host. Without a key the UI answers only
 * these, so a web page whose name an attacker points at 127.0.0.1 (DNS rebinding) reads nothing.
 */
export function loopbackHostHeader(hostHeader: string | undefined): boolean {
  if (!hostHeader) return false;
  const match = /^(\[[^\]]+\]|[^:]+)(?::\d+)?$/.exec(hostHeader.trim());
  return match !== null && isLoopback(match[1]!);
}
