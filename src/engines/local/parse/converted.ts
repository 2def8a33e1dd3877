import type { Document } from "../../../core/index.js";

/** A document turned into HTML (what the markdown writer reads), with what the file says about itself. */
export interface Converted {
  html: string;
  /** From the file's own properties, when it has them. */
  title?: string;
  author?: string;
  /** ISO 8601, the file's own last-modified property (the file system's time is used otherwise). */
  modifiedTime?: string;
  /** Pages of a PDF, slides of a presentation. */
  pages?: number;
  /** Sheet names of a spreadsheet, in order. */
  sheets?: string[];
  /** PDF only: the markdown pdfjs made (PDFs skip HTML). */
  markdown?: string;
  /** Said about the conversion (rows left out, an unreadable part skipped). */
  warnings: string[];
}

/** A parsed document, with the text an extraction reads. */
export interface ParsedFile {
  document: Document;
  markdown: string;
  rawHtml?: string;
}

/** An ISO string from a property value, or undefined when it is not a date. */
export function isoDate(value: unknown): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const date = value instanceof Date ? value : new Date(String(value).trim());
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

export function clean(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const text = value.replace(/\s+/g, " ").trim();
  return text === "" ? undefined : text;
}

/**
 * Headings whose whole text is bold, unwrapped: a heading is bold by nature, and word processors
 * (DOCX, ODT…) often mark its runs bold too, which would come out as `# **Title**`.
 */
export function plainHeadings(html: string): string {
  return html.replace(/<h([1-6])>\s*<(strong|b)>((?:(?!<\/?(?:strong|b)>|<\/h[1-6]>)[\s\S])*)<\/\2>\s*<\/h\1>/g, "<h$1>$3</h$1>");
}
