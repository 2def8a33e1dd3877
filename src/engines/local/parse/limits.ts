/**
 * What one document may cost to convert. A file over a limit fails that document with an error
 * naming the limit; nothing is inflated or parsed past it.
 */
export interface ParseLimits {
  /** Bytes of the file itself (the service's upload limit). */
  maxBytes: number;
  /** Bytes all entries of a zip-based file (DOCX, XLSX, ODT, EPUB, PPTX…) may inflate to, together. */
  maxInflatedBytes: number;
  /** Bytes one entry of a zip-based file (word/document.xml, xl/sharedStrings.xml…) may inflate to. */
  maxPartBytes: number;
  /** Characters of one text or attribute value in an XML part: one cell, one run of text. */
  maxTextLength: number;
  /** Elements an XML part may nest inside each other. */
  maxDepth: number;
  /** Entries of a zip-based file. */
  maxEntries: number;
  /** Cells read from a spreadsheet, all sheets together (after maxRows). */
  maxCells: number;
  /** Megabytes of JavaScript heap one conversion may use (its own thread ends when it needs more). */
  maxHeapMb: number;
  /** Characters of text a conversion may hand back: its markdown, html and the converter's HTML together. */
  maxOutputChars: number;
}

export const DEFAULT_PARSE_LIMITS: ParseLimits = {
  maxBytes: 50 * 1024 * 1024,
  maxInflatedBytes: 250 * 1024 * 1024,
  maxPartBytes: 64 * 1024 * 1024,
  maxTextLength: 1024 * 1024,
  maxDepth: 256,
  maxEntries: 10_000,
  maxCells: 2_000_000,
  maxHeapMb: 512,
  maxOutputChars: 100 * 1024 * 1024,
};

/** Rows kept per spreadsheet sheet when the step does not say (`maxRows`). */
export const DEFAULT_MAX_ROWS = 1000;

export function megabytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${bytes} bytes`;
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}
