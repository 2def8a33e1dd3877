import type { UrlResolver } from "./urls.js";

/**
 * The links of a page from the `href` of its `<a>` elements as written (collected while parsing):
 * trimmed, made absolute, fragments stripped, fragment-only links dropped, only http(s) and
 * mailto kept, duplicates removed (first occurrence wins).
 */
export function extractLinks(hrefs: readonly string[], urls: UrlResolver): string[] {
  const seen = new Set<string>();
  for (const raw of hrefs) {
    const href = raw.trim();
    if (href === "" || href.charCodeAt(0) === 35 /* # */) continue;
    let url = urls.resolve(href);
    if (url === undefined) continue;
    const lower = url.slice(0, 8).toLowerCase();
    if (lower.startsWith("mailto:")) {
      seen.add(url);
      continue;
    }
    if (!lower.startsWith("https://") && !lower.startsWith("http://")) continue;
    const hash = url.indexOf("#");
    if (hash !== -1) url = url.slice(0, hash);
    seen.add(url);
  }
  return [...seen];
}
