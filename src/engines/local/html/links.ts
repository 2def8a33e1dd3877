import type { El } from "./dom.js";
import type { UrlResolver } from "./urls.js";

/**
 * Every `a[href]` of the cleaned tree: trimmed, made absolute, fragments stripped, fragment-only
 * links dropped, only http(s) and mailto kept, duplicates removed (first occurrence wins).
 */
export function extractLinks(root: El, urls: UrlResolver): string[] {
  const seen = new Set<string>();
  const walk = (el: El): void => {
    for (const child of el.children) {
      if (typeof child === "string") continue;
      if (child.tag === "a") {
        const href = child.attr("href");
        if (href !== undefined) add(href);
      }
      if (child.children.length > 0) walk(child);
    }
  };
  const add = (raw: string): void => {
    const href = raw.trim();
    if (href === "" || href.charCodeAt(0) === 35 /* # */) return;
    let url = urls.resolve(href);
    if (url === undefined) return;
    const lower = url.slice(0, 8).toLowerCase();
    if (lower.startsWith("mailto:")) {
      seen.add(url);
      return;
    }
    if (!lower.startsWith("https://") && !lower.startsWith("http://")) return;
    const hash = url.indexOf("#");
    if (hash !== -1) url = url.slice(0, hash);
    seen.add(url);
  };
  walk(root);
  return [...seen];
}
