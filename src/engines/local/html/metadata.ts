import { collapseSpace, decodeText } from "./dom.js";
import type { PageInfo } from "./parse.js";
import type { ArticleFacts } from "./structured-data.js";
import type { UrlResolver } from "./urls.js";

/** Renamed keys the service gives to well-known `article:` properties. */
const ARTICLE_NAMES: Record<string, string> = {
  "article:published_time": "publishedTime",
  "article:modified_time": "modifiedTime",
};

/**
 * The page's metadata, read from the raw document: `<title>`, `html[lang]`, the favicon, and every
 * `<meta name|property|itemprop content>`: under its raw name, and for og:, twitter:, article: and
 * Dublin Core names also under a camelCase name (ogTitle, twitterCard, publishedTime, dcTermsCreated).
 * Repeated names collect into arrays; repeated descriptions are joined with ", ". The article's
 * `author`, `publishedTime` and `modifiedTime`, when no meta tag states them, come from the page's
 * structured data (JSON-LD).
 */
export function extractMetadata(info: PageInfo, urls: UrlResolver, facts: ArticleFacts = {}): Record<string, unknown> {
  const metadata: Record<string, unknown> = {};
  if (info.title !== undefined) metadata["title"] = collapseSpace(decodeText(info.title));
  if (info.lang !== undefined && info.lang.trim() !== "") metadata["language"] = info.lang.trim();
  const favicon = findFavicon(info.links);
  if (favicon !== undefined) {
    const absolute = urls.resolve(favicon);
    if (absolute !== undefined) metadata["favicon"] = absolute;
  }
  for (const attrs of info.metas) {
    let key: string | undefined;
    let content: string | undefined;
    for (let i = 0; i < attrs.length; i += 2) {
      const name = attrs[i];
      if (name === "content") content = attrs[i + 1];
      else if (name === "name") key = attrs[i + 1];
      else if ((name === "property" || name === "itemprop") && key === undefined) key = attrs[i + 1];
    }
    if (key === undefined || content === undefined || key.trim() === "") continue;
    key = key.trim();
    const lower = key.toLowerCase();
    const alias = aliasFor(lower);
    if (lower === "description" || lower === "keywords" || lower === "robots") {
      add(metadata, lower, content);
      if (key !== lower) add(metadata, key, content);
    } else {
      if (alias !== undefined) add(metadata, alias, content);
      add(metadata, key, content);
    }
  }
  fillIn(metadata, "author", facts.author);
  fillIn(metadata, "publishedTime", facts.publishedTime);
  fillIn(metadata, "modifiedTime", facts.modifiedTime);
  return metadata;
}

/** Sets `key` to `value` unless the page already states it (an empty meta tag states nothing). */
export function fillIn(metadata: Record<string, unknown>, key: string, value: string | undefined): void {
  if (value === undefined) return;
  const existing = metadata[key];
  if (existing === undefined || (typeof existing === "string" && existing.trim() === "")) metadata[key] = value;
}

function add(metadata: Record<string, unknown>, key: string, value: string): void {
  const existing = metadata[key];
  if (existing === undefined) metadata[key] = value;
  else if (key === "description" && typeof existing === "string") metadata[key] = `${existing}, ${value}`;
  else if (Array.isArray(existing)) existing.push(value);
  else metadata[key] = [existing, value];
}

/** ogTitle for og:title, twitterCard for twitter:card, dcTermsCreated for dcterms.created, … */
export function aliasFor(lowerName: string): string | undefined {
  const article = ARTICLE_NAMES[lowerName];
  if (article !== undefined) return article;
  let prefix: string;
  let rest: string;
  if (lowerName.startsWith("og:")) [prefix, rest] = ["og", lowerName.slice(3)];
  else if (lowerName.startsWith("twitter:")) [prefix, rest] = ["twitter", lowerName.slice(8)];
  else if (lowerName.startsWith("article:")) [prefix, rest] = ["article", lowerName.slice(8)];
  else if (lowerName.startsWith("dcterms.")) [prefix, rest] = ["dcTerms", lowerName.slice(8)];
  else if (lowerName.startsWith("dc.")) [prefix, rest] = ["dc", lowerName.slice(3)];
  else return undefined;
  const words = rest.split(/[:._-]+/).filter((word) => word !== "");
  if (words.length === 0) return undefined;
  return prefix + words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join("");
}

/** `link[rel=icon]` first, then any rel containing "icon" (shortcut icon, apple-touch-icon). */
function findFavicon(links: string[][]): string | undefined {
  let fallback: string | undefined;
  for (const attrs of links) {
    let rel: string | undefined;
    let href: string | undefined;
    for (let i = 0; i < attrs.length; i += 2) {
      if (attrs[i] === "rel") rel = attrs[i + 1]!.toLowerCase().trim();
      else if (attrs[i] === "href") href = attrs[i + 1];
    }
    if (rel === undefined || href === undefined || href.trim() === "") continue;
    if (rel === "icon") return href;
    if (fallback === undefined && rel.includes("icon")) fallback = href;
  }
  return fallback;
}
