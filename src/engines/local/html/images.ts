import type { El } from "./dom.js";
import type { PageInfo } from "./parse.js";
import { parseSrcset, type UrlResolver } from "./urls.js";

const META_IMAGES = new Set(["og:image", "og:image:url", "og:image:secure_url", "twitter:image", "twitter:image:src", "image"]);
const BACKGROUND_URL = /url\(\s*(['"]?)(.*?)\1\s*\)/g;

/**
 * Image URLs of the page: from the cleaned tree every img src, data-src and srcset candidate,
 * picture source srcsets, inline background-image urls and video posters; from the head the og and
 * twitter images, itemprop=image metas and icon links. Absolute, deduplicated, javascript: dropped.
 */
export function extractImages(root: El, info: PageInfo, urls: UrlResolver): string[] {
  const seen = new Set<string>();
  const add = (raw: string | undefined): void => {
    if (raw === undefined) return;
    const trimmed = raw.trim();
    if (trimmed === "" || /^javascript:/i.test(trimmed)) return;
    const url = urls.resolve(trimmed);
    if (url !== undefined) seen.add(url);
  };
  const addSrcset = (srcset: string | undefined): void => {
    if (srcset !== undefined) for (const candidate of parseSrcset(srcset)) add(candidate.url);
  };
  const walk = (el: El, inPicture: boolean): void => {
    for (const child of el.children) {
      if (typeof child === "string") continue;
      const tag = child.tag;
      if (tag === "img") {
        add(child.attr("src"));
        add(child.attr("data-src"));
        addSrcset(child.attr("srcset"));
      } else if (tag === "source" && inPicture) {
        addSrcset(child.attr("srcset"));
      } else if (tag === "video") {
        add(child.attr("poster"));
      }
      const style = child.attrs.length > 0 ? child.attr("style") : undefined;
      if (style !== undefined && style.includes("url(") && /background/i.test(style)) {
        for (const match of style.matchAll(BACKGROUND_URL)) add(match[2]);
      }
      if (child.children.length > 0) walk(child, inPicture || tag === "picture");
    }
  };
  walk(root, false);
  for (const attrs of info.metas) {
    let key: string | undefined;
    let content: string | undefined;
    for (let i = 0; i < attrs.length; i += 2) {
      const name = attrs[i];
      if (name === "content") content = attrs[i + 1];
      else if (name === "property" || name === "name" || name === "itemprop") key ??= attrs[i + 1]!.trim().toLowerCase();
    }
    if (key !== undefined && META_IMAGES.has(key)) add(content);
  }
  for (const attrs of info.links) {
    let rel = "";
    let href: string | undefined;
    for (let i = 0; i < attrs.length; i += 2) {
      if (attrs[i] === "rel") rel = attrs[i + 1]!.toLowerCase();
      else if (attrs[i] === "href") href = attrs[i + 1];
    }
    if (rel.includes("icon") || rel.includes("image_src")) add(href);
  }
  return [...seen];
}
