/**
 * The document information a PDF declares about itself; absent entries are left out. A type
 * literal (not an interface) so it passes where a Record<string, unknown> is expected.
 */
export type PdfMetadata = {
  title?: string;
  author?: string;
  subject?: string;
  keywords?: string;
  creator?: string;
  producer?: string;
  /** ISO 8601 when the PDF date parses, else the raw value. */
  creationDate?: string;
  modDate?: string;
};

/** Info dictionary keys, by the name they get in PdfMetadata. */
const TEXT_KEYS = { title: "Title", author: "Author", subject: "Subject", keywords: "Keywords", creator: "Creator", producer: "Producer" } as const;
const DATE_KEYS = { creationDate: "CreationDate", modDate: "ModDate" } as const;

/** Reads an XMP packet entry such as `dc:title`. */
export interface XmpReader {
  get(name: string): unknown;
}

/**
 * Builds PdfMetadata from the Info dictionary (as pdf.js reports it), falling back to the XMP
 * packet's dc:title and dc:creator. `toDate` parses a PDF date string ("D:20240102030405Z").
 */
export function pdfMetadata(info: Record<string, unknown>, xmp: XmpReader | null, toDate: (value: string) => Date | null): PdfMetadata {
  const metadata: PdfMetadata = {};
  for (const [name, key] of Object.entries(TEXT_KEYS) as [keyof typeof TEXT_KEYS, string][]) {
    const value = text(info[key]);
    if (value !== undefined) metadata[name] = value;
  }
  for (const [name, key] of Object.entries(DATE_KEYS) as [keyof typeof DATE_KEYS, string][]) {
    const value = text(info[key]);
    if (value !== undefined) metadata[name] = isoDate(value, toDate);
  }
  if (xmp !== null) {
    metadata.title ??= text(safeGet(xmp, "dc:title"));
    metadata.author ??= text(safeGet(xmp, "dc:creator"));
    if (metadata.title === undefined) delete metadata.title;
    if (metadata.author === undefined) delete metadata.author;
  }
  return metadata;
}

/** A trimmed, non-empty string (the first one of an array, as XMP gives lists), or undefined. */
function text(value: unknown): string | undefined {
  const first = Array.isArray(value) ? (value as unknown[])[0] : value;
  if (typeof first !== "string") return undefined;
  const cleaned = first.replace(/[\u0000-\u001f\u007f]/g, " ").replace(/\s+/g, " ").trim();
  return cleaned === "" ? undefined : cleaned;
}

function isoDate(value: string, toDate: (value: string) => Date | null): string {
  try {
    const date = toDate(value);
    return date !== null && !Number.isNaN(date.getTime()) ? date.toISOString() : value;
  } catch {
    return value;
  }
}

function safeGet(xmp: XmpReader, name: string): unknown {
  try {
    return xmp.get(name);
  } catch {
    return undefined;
  }
}
