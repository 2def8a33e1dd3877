import type { Document, DocumentMetadata, ParseInput, ParseOptions } from "../../../core/index.js";
import { ScrapelineError } from "../../../core/index.js";
import { processHtml } from "../html/index.js";
import { pdfToBase64, pdfToMarkdown } from "../pdf/index.js";
import { clean, isoDate, plainHeadings, type Converted, type ParsedFile } from "./converted.js";
import { CONTENT_TYPES, detectFormat, type DocumentFormat } from "./detect.js";
import { docxToHtml } from "./docx.js";
import { DEFAULT_PARSE_LIMITS, megabytes, type ParseLimits } from "./limits.js";
import { sheetToHtml } from "./sheet.js";
import { epubToHtml } from "./epub.js";
import { odfToHtml } from "./odf.js";
import { pptxToHtml } from "./pptx.js";
import { rtfToHtml } from "./rtf.js";

export type { ParsedFile } from "./converted.js";
export { ACCEPTED, detectFormat, type DocumentFormat } from "./detect.js";
export { withDeadline } from "./deadline.js";
export { MAX_CONVERSIONS, parseInThread, runningConversions } from "./in-thread.js";
export { DEFAULT_MAX_ROWS, DEFAULT_PARSE_LIMITS, type ParseLimits } from "./limits.js";

/** Formats a parse can answer; the others need a page in a browser or a site. */
const PARSE_FORMATS = new Set(["markdown", "html", "rawHtml", "links", "images", "json", "summary", "changeTracking"]);

/**
 * Converts one document file: its format detected from its content, converted to HTML by the
 * format's reader, then through the same markdown writer as pages (PDF through pdfjs). Fails with
 * a ScrapelineError (bad-content, too-large, unsupported) naming the file and the reason.
 */
export async function parseFile(file: ParseInput, options: ParseOptions, signal?: AbortSignal, limits: ParseLimits = { ...DEFAULT_PARSE_LIMITS, maxBytes: options.maxFileSize }): Promise<ParsedFile> {
  const refused = options.formats.find((f) => !PARSE_FORMATS.has(f.type));
  if (refused) throw new ScrapelineError("invalid-input", `format ${refused.type} cannot be made from a document file (it needs a page in a browser)`);
  if (file.bytes.byteLength > limits.maxBytes) throw new ScrapelineError("too-large", `${file.name} is ${megabytes(file.bytes.byteLength)}, over the ${megabytes(limits.maxBytes)} limit of a parsed file`);
  const format = detectFormat(file.bytes, file.name);
  const converted = await convert(format, file, options, limits, signal);
  const metadata: DocumentMetadata = { sourceURL: file.url, url: file.url, statusCode: 200, contentType: CONTENT_TYPES[format], format };
  const want = new Set(options.formats.map((f) => f.type));
  const document: Document = { metadata };
  let markdown: string;
  let rawHtml: string | undefined;
  if (converted.markdown !== undefined) {
    markdown = converted.markdown;
    if (want.has("markdown")) document.markdown = markdown;
  } else {
    rawHtml = converted.html;
    const html = processHtml(format === "html" ? converted.html : plainHeadings(converted.html), {
      url: file.url,
      // Only a web page has chrome around its content; a converted document is all content.
      onlyMainContent: format === "html" && options.onlyMainContent,
      ...(options.includeTags ? { includeTags: options.includeTags } : {}),
      ...(options.excludeTags ? { excludeTags: options.excludeTags } : {}),
      removeBase64Images: options.removeBase64Images,
      blockAds: format === "html" && options.blockAds,
      want: { markdown: true, html: want.has("html"), links: want.has("links"), images: want.has("images") },
    });
    markdown = html.markdown ?? "";
    if (want.has("markdown")) document.markdown = markdown;
    if (html.html !== undefined) document.html = html.html;
    if (html.links !== undefined) document.links = html.links;
    if (html.images !== undefined) document.images = html.images;
    if (want.has("rawHtml")) document.rawHtml = converted.html;
    if (format === "html") {
      const title = clean(html.metadata.title);
      if (title) converted.title ??= title;
      const author = clean(html.metadata.author);
      if (author) converted.author ??= author;
    }
  }
  if (converted.title) metadata.title = converted.title;
  if (converted.author) metadata.author = converted.author;
  if (converted.pages !== undefined) metadata.pages = converted.pages;
  // A PDF's pages are billed as the service bills a parsed PDF: 1 credit per page (numPages).
  if (format === "pdf" && converted.pages !== undefined) metadata.numPages = converted.pages;
  if (converted.sheets) metadata.sheets = converted.sheets;
  const modified = converted.modifiedTime ?? isoDate(file.modifiedTime);
  if (modified) metadata.modifiedTime = modified;
  if (converted.warnings.length) document.warning = converted.warnings.join("; ");
  // What a conversion hands back is held by the process (stored, answered): bounded like the rest.
  const text = markdown.length + (rawHtml?.length ?? 0) + (document.html?.length ?? 0);
  if (text > limits.maxOutputChars) throw new ScrapelineError("too-large", `${file.name} converts to more than ${limits.maxOutputChars} characters of text (the limit of a parsed document): refused`);
  return { document, markdown, ...(rawHtml !== undefined ? { rawHtml } : {}) };
}

async function convert(format: DocumentFormat, file: ParseInput, options: ParseOptions, limits: ParseLimits, signal?: AbortSignal): Promise<Converted> {
  const { bytes, name } = file;
  switch (format) {
    case "pdf": {
      // As for fetched PDFs: `parsers: []` answers the file base64-encoded, billed flat.
      if (options.parsers.length === 0) return { html: "", markdown: pdfToBase64(bytes), warnings: [] };
      const maxPages = options.parsers[0]?.maxPages;
      const pdf = await pdfToMarkdown(bytes, { ...(maxPages ? { maxPages } : {}), ...(signal ? { signal } : {}) }).catch((error: unknown) => {
        throw error instanceof ScrapelineError && error.kind === "bad-content" ? new ScrapelineError("bad-content", `${name}: ${error.message}`) : error;
      });
      const out: Converted = { html: "", markdown: pdf.markdown, pages: pdf.numPages, warnings: [] };
      const title = clean(pdf.metadata.title);
      const author = clean(pdf.metadata.author);
      const modified = isoDate(pdf.metadata.modDate);
      if (title) out.title = title;
      if (author) out.author = author;
      if (modified) out.modifiedTime = modified;
      if (pdf.totalPages > pdf.numPages) out.warnings.push(`${pdf.totalPages - pdf.numPages} page(s) after the first ${pdf.numPages} were left out (maxPages)`);
      return out;
    }
    case "html":
      return { html: decodeHtml(bytes), warnings: [] };
    case "docx":
      return docxToHtml(bytes, limits, name);
    case "xlsx":
    case "xls":
    case "ods":
    case "csv":
      return sheetToHtml(bytes, format, options.maxRows, limits, name);
    case "odt":
    case "odp":
      return odfToHtml(bytes, format, limits, name);
    case "pptx":
      return pptxToHtml(bytes, limits, name);
    case "epub":
      return epubToHtml(bytes, limits, name);
    case "rtf":
      return rtfToHtml(bytes, name);
  }
}

/** HTML bytes as text: a BOM or `<meta charset>` decides, UTF-8 otherwise. */
function decodeHtml(bytes: Uint8Array): string {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 2048));
  const declared = /<meta[^>]+charset=["']?([\w-]+)/i.exec(head)?.[1] ?? "utf-8";
  try {
    return new TextDecoder(declared).decode(bytes);
  } catch {
    return new TextDecoder("utf-8").decode(bytes);
  }
}
