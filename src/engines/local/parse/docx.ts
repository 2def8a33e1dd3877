import { Buffer } from "node:buffer";
import mammoth from "mammoth";
import { ScrapelineError } from "../../../core/index.js";
import { clean, isoDate, type Converted } from "./converted.js";
import type { ParseLimits } from "./limits.js";
import { entryText, readZip } from "./zip.js";
import { find, parseXml, textOf } from "./xml.js";

/** Word's Title paragraph style is the document's heading (mammoth's own map has only Heading 1–6). */
const STYLE_MAP = ["p[style-name='Title'] => h1:fresh"];

/**
 * DOCX/DOCM to HTML with mammoth (a Title paragraph and headings, lists, tables, links, footnotes and endnotes;
 * images become data: URIs, which removeBase64Images may drop). The zip is checked against the
 * limits before mammoth reads it; title, author and modified time come from docProps/core.xml.
 */
export async function docxToHtml(bytes: Uint8Array, limits: ParseLimits, label: string): Promise<Converted> {
  const entries = readZip(bytes, limits, label, (name) => name === "docProps/core.xml");
  const properties = coreProperties(entryText(entries, "docProps/core.xml"));
  let result: { value: string; messages: Array<{ type: string; message: string }> };
  try {
    result = await mammoth.convertToHtml({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) }, { externalFileAccess: false, styleMap: STYLE_MAP });
  } catch (error) {
    throw new ScrapelineError("bad-content", `${label} could not be read as a Word document (${(error as Error).message})`);
  }
  const warnings = result.messages.filter((m) => m.type === "error").map((m) => m.message);
  return { html: result.value, ...properties, warnings };
}

/** Title, author and modified time of an OOXML file (docProps/core.xml). */
export function coreProperties(xml: string | undefined): Pick<Converted, "title" | "author" | "modifiedTime"> {
  if (!xml) return {};
  const root = parseXml(xml);
  const value = (name: string) => {
    const el = find(root, name);
    return el ? clean(textOf(el)) : undefined;
  };
  const out: Pick<Converted, "title" | "author" | "modifiedTime"> = {};
  const title = value("dc:title");
  const author = value("dc:creator");
  const modified = isoDate(value("dcterms:modified"));
  if (title) out.title = title;
  if (author) out.author = author;
  if (modified) out.modifiedTime = modified;
  return out;
}
