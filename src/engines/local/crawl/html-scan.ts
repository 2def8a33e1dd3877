import { decodeEntities } from "./entities.js";

/** Title and description of a page, when it declares them. */
export interface PageHead {
  title?: string;
  description?: string;
}

const HIDDEN = /<!--[\s\S]*?-->|<(script|style|template|noscript)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
const ANCHOR = /<(?:a|area)\b([^>]*)>/gi;
const BASE = /<base\b([^>]*)>/i;
const TITLE = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i;
const META = /<meta\b([^>]*)>/gi;

/**
 * The link targets of a page, by a light scan of `<a href>` and `<area href>` (comments,
 * scripts and styles skipped): resolved against `<base href>` or `pageUrl`, http(s) only,
 * fragments dropped, duplicates removed, in document order. Not a parser: good enough to
 * discover pages, not to convert them.
 */
export function scanLinks(html: string, pageUrl: string): string[] {
  return linksOf(html.replace(HIDDEN, " "), pageUrl);
}

/** Links and head of a page in one scan: `scanLinks` and `scanHead` with the hidden parts removed once. */
export function scanPage(html: string, pageUrl: string): { head: PageHead; links: string[] } {
  const visible = html.replace(HIDDEN, " ");
  return { head: headOf(visible), links: linksOf(visible, pageUrl) };
}

function linksOf(visible: string, pageUrl: string): string[] {
  let base = pageUrl;
  const declared = BASE.exec(visible);
  const baseHref = declared ? attribute(declared[1] ?? "", "href") : undefined;
  if (baseHref !== undefined) base = resolve(baseHref, pageUrl) ?? pageUrl;
  const links = new Set<string>();
  for (const match of visible.matchAll(ANCHOR)) {
    const href = attribute(match[1] ?? "", "href");
    if (href === undefined || href.startsWith("#")) continue;
    const url = resolve(href, base);
    if (url !== undefined) links.add(url);
  }
  return [...links];
}

/** The `<title>` and the meta description (else `og:description`) of a page, whitespace collapsed. */
export function scanHead(html: string): PageHead {
  return headOf(html.replace(HIDDEN, " "));
}

function headOf(visible: string): PageHead {
  const head: PageHead = {};
  const title = TITLE.exec(visible)?.[1];
  if (title !== undefined) {
    const text = collapse(decodeEntities(title.replace(/<[^>]*>/g, "")));
    if (text !== "") head.title = text;
  }
  let og: string | undefined;
  for (const match of visible.matchAll(META)) {
    const attrs = match[1] ?? "";
    const name = (attribute(attrs, "name") ?? attribute(attrs, "property"))?.toLowerCase();
    const content = attribute(attrs, "content");
    if (content === undefined || collapse(content) === "") continue;
    if (name === "description") {
      head.description = collapse(content);
      break;
    }
    if (name === "og:description") og ??= collapse(content);
  }
  if (head.description === undefined && og !== undefined) head.description = og;
  return head;
}

/** One pattern per attribute name read (a handful), compiled once. */
const ATTRIBUTE_PATTERNS = new Map<string, RegExp>();

/** The entity-decoded value of attribute `name` in the text of a start tag. */
function attribute(attrs: string, name: string): string | undefined {
  let pattern = ATTRIBUTE_PATTERNS.get(name);
  if (pattern === undefined) {
    pattern = new RegExp(`(?:^|[\\s"'/])${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, "i");
    ATTRIBUTE_PATTERNS.set(name, pattern);
  }
  const match = pattern.exec(attrs);
  if (!match) return undefined;
  return decodeEntities((match[1] ?? match[2] ?? match[3] ?? "").trim());
}

function resolve(href: string, base: string): string | undefined {
  try {
    const url = new URL(href, base);
    if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
    url.hash = "";
    return url.href;
  } catch {
    return undefined;
  }
}

function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
