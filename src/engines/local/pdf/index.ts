import { Buffer } from "node:buffer";

export { pdfToMarkdown, type PdfOptions, type PdfText } from "./extract.js";
export type { PdfMetadata } from "./metadata.js";

const MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"
const PDF_TYPES = new Set(["application/pdf", "application/x-pdf", "application/acrobat", "applications/vnd.pdf"]);

/** Whether a body is a PDF: it starts with the `%PDF-` signature, or the Content-Type says so. */
export function isPdf(body: Uint8Array, contentType: string | undefined): boolean {
  if (body.length >= MAGIC.length && MAGIC.every((byte, i) => body[i] === byte)) return true;
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  return PDF_TYPES.has(type);
}

/** The PDF unparsed, base64-encoded (what `parsers: []` returns as the document's content). */
export function pdfToBase64(body: Uint8Array): string {
  return Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString("base64");
}
