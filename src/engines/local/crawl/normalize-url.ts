/** URLs longer than this are never crawled: real pages rarely need more, traps often do. */
export const MAX_URL_LENGTH = 2048;

/** How `normalizeUrl` treats the query string. */
export interface NormalizeOptions {
  /** Drop the whole query string. */
  ignoreQueryParameters?: boolean;
}

/**
 * The form of a link that is fetched: resolved against `base`, http(s) only, fragment dropped,
 * scheme and host lower-cased, default port dropped, an empty `?` dropped, and the query dropped
 * when `ignoreQueryParameters`. Nothing else is reordered, and a trailing slash is kept (servers
 * tell `/a/` from `/a`); `samePageKey` is what makes those two one page.
 * Returns undefined for what cannot be crawled: unparsable links, other schemes (mailto:,
 * javascript:, data:, ftp:) and URLs over MAX_URL_LENGTH characters.
 */
export function normalizeUrl(raw: string, base?: string, options: NormalizeOptions = {}): string | undefined {
  return normalizedUrl(raw, base, options)?.href;
}

/** `normalizeUrl`, as the parsed URL (its `href` is the normalized form). */
export function normalizedUrl(raw: string, base?: string, options: NormalizeOptions = {}): URL | undefined {
  const text = raw.trim();
  if (text === "" || text.length > MAX_URL_LENGTH) return undefined;
  let url: URL;
  try {
    url = base === undefined ? new URL(text) : new URL(text, base);
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  if (url.hostname === "") return undefined;
  // Each setter parses the whole URL again: only what is there is removed (an empty "#" or "?" too).
  if (url.href.includes("#")) url.hash = "";
  if (url.href.includes("?") && (options.ignoreQueryParameters || url.search === "")) url.search = "";
  return url.href.length > MAX_URL_LENGTH ? undefined : url;
}

/** The path with trailing slashes removed (but the root kept), so `/a/` and `/a` are one page. */
export function withoutTrailingSlash(pathname: string): string {
  return pathname.length > 1 && pathname.endsWith("/") ? pathname.replace(/\/+$/, "") || "/" : pathname;
}
