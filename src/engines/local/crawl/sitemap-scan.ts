import { decodeEntities } from "./entities.js";

/** What a sitemap file turned out to be. */
export type SitemapKind = "urlset" | "index" | "text" | "unknown";

/** Called for each `<loc>`; `sitemap` is true for an entry of a sitemap index. Return false to stop. */
export type LocVisitor = (loc: string, sitemap: boolean) => boolean;

const ROOT = /<([\w.-]+:)?(urlset|sitemapindex)\b[^>]*>/i;

/**
 * Scans the text of a sitemap without building a tree: a `<urlset>` gives page URLs, a
 * `<sitemapindex>` gives sitemap URLs, a file that is not XML is read as the plain-text form
 * (one URL per line). `<loc>` values are trimmed, CDATA-unwrapped and entity-decoded. Only
 * `<loc>` in the sitemap namespace's prefix counts, so the `<image:loc>` of image sitemaps is
 * not taken for a page.
 */
export function scanSitemap(text: string, visit: LocVisitor): SitemapKind {
  const start = text.replace(/^\ufeff/, "").trimStart();
  if (start !== "" && !start.startsWith("<")) {
    for (const line of start.split(/\r?\n/)) {
      const url = line.trim();
      if (/^https?:\/\//i.test(url) && !visit(url, false)) break;
    }
    return "text";
  }
  const root = ROOT.exec(text);
  if (!root) return "unknown";
  const prefix = escapeRegExp(root[1] ?? "");
  const isIndex = root[2]?.toLowerCase() === "sitemapindex";
  const tags = new RegExp(`<(/?)${prefix}(sitemap|url|loc)\\s*(?:\\s[^>]*)?>`, "gi");
  const closeLoc = new RegExp(`</${prefix}loc\\s*>`, "gi");
  let entry: "sitemap" | "url" | undefined;
  tags.lastIndex = root.index + root[0].length;
  for (let match = tags.exec(text); match; match = tags.exec(text)) {
    const closing = match[1] === "/";
    const name = (match[2] ?? "").toLowerCase();
    if (name !== "loc") {
      entry = closing ? undefined : (name as "sitemap" | "url");
      continue;
    }
    if (closing || match[0].endsWith("/>")) continue;
    closeLoc.lastIndex = tags.lastIndex;
    const end = closeLoc.exec(text);
    if (!end) break;
    const loc = unwrap(text.slice(tags.lastIndex, end.index));
    tags.lastIndex = end.index + end[0].length;
    if (loc !== "" && !visit(loc, entry === undefined ? isIndex : entry === "sitemap")) break;
  }
  return isIndex ? "index" : "urlset";
}

function unwrap(raw: string): string {
  const cdata = /^\s*<!\[CDATA\[([\s\S]*?)\]\]>\s*$/.exec(raw);
  return cdata ? (cdata[1] ?? "").trim() : decodeEntities(raw.trim());
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&");
}
