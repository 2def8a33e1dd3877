import { posix } from "node:path";
import { ScrapelineError } from "../../../core/index.js";
import { clean, isoDate, type Converted } from "./converted.js";
import type { ParseLimits } from "./limits.js";
import { entryText, readZip } from "./zip.js";
import { find, findAll, parseXml, textOf } from "./xml.js";

/**
 * EPUB to HTML: the chapters of the spine in reading order (their bodies joined), title, author
 * and date from the package document. DRM-encrypted books (META-INF/encryption.xml naming content)
 * are refused.
 */
export function epubToHtml(bytes: Uint8Array, limits: ParseLimits, label: string): Converted {
  const entries = readZip(bytes, limits, label, (name) => /\.(x?html?|opf|xml|ncx)$/i.test(name));
  const container = entryText(entries, "META-INF/container.xml");
  const opfPath = container ? find(parseXml(container), "rootfile")?.attrs["full-path"] : undefined;
  const opfText = opfPath ? entryText(entries, opfPath) : undefined;
  if (!opfPath || !opfText) throw new ScrapelineError("bad-content", `${label} has no package document (META-INF/container.xml → .opf): not a complete EPUB`);
  const encryption = entryText(entries, "META-INF/encryption.xml");
  if (encryption && /EncryptedData/.test(encryption)) throw new ScrapelineError("bad-content", `${label} is encrypted (DRM): its chapters cannot be read`);
  const opf = parseXml(opfText);
  const base = posix.dirname(opfPath);
  const manifest = new Map(findAll(opf, "item", "opf:item").map((item) => [item.attrs.id ?? "", item.attrs.href ?? ""]));
  const chapters: string[] = [];
  for (const ref of findAll(opf, "itemref", "opf:itemref")) {
    const href = manifest.get(ref.attrs.idref ?? "");
    if (!href) continue;
    const text = entryText(entries, posix.normalize(posix.join(base, decodeURIComponent(href))));
    if (!text) continue;
    const body = /<body[^>]*>([\s\S]*)<\/body>/i.exec(text)?.[1] ?? text;
    chapters.push(`<section>${body}</section>`);
  }
  const value = (name: string) => {
    const el = find(opf, name);
    return el ? clean(textOf(el)) : undefined;
  };
  const out: Converted = { html: chapters.join("\n"), warnings: [] };
  const title = value("dc:title");
  const author = value("dc:creator");
  const modified = isoDate(find(opf, "meta") && findAll(opf, "meta").find((m) => m.attrs.property === "dcterms:modified") ? textOf(findAll(opf, "meta").find((m) => m.attrs.property === "dcterms:modified")!) : value("dc:date"));
  if (title) out.title = title;
  if (author) out.author = author;
  if (modified) out.modifiedTime = modified;
  return out;
}
