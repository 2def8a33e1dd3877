import { distance } from "fastest-levenshtein";
import { ScrapelineError } from "../../core/index.js";
import { normalizeUrl, withoutTrailingSlash } from "../../engines/local/crawl/normalize-url.js";

/** What history and diff read: the snapshots stored under a URL on a tag's branch, and every URL that has some. */
export interface SnapshotUrls {
  snapshotUrls(tag: string | null): string[];
}

/** Stored URLs suggested when none is the page asked for. */
const SUGGESTED = 3;

/**
 * The stored URL of the page the user named. A URL is one page however it is written: without a
 * scheme (https, then http), in another case of host, with or without a trailing slash, a
 * fragment or a default port — as the crawler reads links. When several stored URLs are that page,
 * the one written like the request wins, then https. No match is an error that names the nearest
 * stored URLs (or, with none stored, how to make a history).
 */
export function storedPageUrl(store: SnapshotUrls, given: string, tag: string | null): string {
  const stored = store.snapshotUrls(tag);
  if (stored.includes(given)) return given;
  const label = tag === null ? given : `${given} (tag ${tag})`;
  const wanted = pageKey(given);
  if (wanted === undefined) throw new ScrapelineError("invalid-input", `"${given}" is not a URL; give the page's address, such as https://example.com/pricing`);
  const same = stored.filter((url) => pageKey(url) === wanted);
  if (same.length > 0) {
    const written = normalizeUrl(withScheme(given));
    return same.find((url) => normalizeUrl(url) === written) ?? same.find((url) => url.startsWith("https:")) ?? same[0]!;
  }
  if (stored.length === 0) {
    throw new ScrapelineError("invalid-input", `no snapshots of ${label}: this database has no change history${tag === null ? "" : ` for tag ${tag}`} yet; run a pipeline with the changeTracking format first`);
  }
  const nearest = stored
    .map((url) => ({ url, score: distance(wanted, pageKey(url) ?? url) }))
    .sort((a, b) => a.score - b.score || a.url.localeCompare(b.url))
    .slice(0, SUGGESTED)
    .map((s) => s.url);
  throw new ScrapelineError("invalid-input", `no snapshots of ${label}; the nearest pages with a history: ${nearest.join(", ")}`);
}

/** "example.com/a" is read as https://example.com/a. */
function withScheme(url: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(url.trim()) ? url.trim() : `https://${url.trim()}`;
}

/** host + path without its trailing slash + query: what makes two written URLs one page (the scheme aside). */
function pageKey(url: string): string | undefined {
  const normalized = normalizeUrl(withScheme(url));
  if (normalized === undefined) return undefined;
  const parsed = new URL(normalized);
  return `${parsed.host}${withoutTrailingSlash(parsed.pathname)}${parsed.search}`;
}
