import type { El } from "./dom.js";
import type { UrlResolver } from "./urls.js";

/**
 * The `links` format: every `a[href]` of the cleaned tree (so content options shape it, as the
 * service's links follow its cleaned html), normalized as `normalizeLinks` does.
 */
export function extractLinks(root: El, urls: UrlResolver): string[] {
  const hrefs: string[] = [];
  const walk = (el: El): void => {
    for (const child of el.children) {
      if (typeof child === "string") continue;
      if (child.tag === "a") {
        const href = child.attr("href");
        if (href !== undefined) hrefs.push(href);
      }
      if (child.children.length > 0) walk(child);
    }
  };
  walk(root);
  return normalizeLinks(hrefs, urls);
}

/**
 * Links as the `href`s of `<a>` elements give them: trimmed, made absolute, fragments stripped,
 * fragment-only links dropped, only http(s) and mailto kept, duplicates removed (first occurrence
 * wins). Given the hrefs collected while parsing, before content options prune the tree, they are
 * the page's links that a crawl follows.
 */
export function normalizeLinks(hrefs: readonly string[], urls: UrlResolver): string[] {
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
