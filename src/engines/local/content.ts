import { decodeText, isUtf16, textEncoding } from "./fetch/index.js";

/** What kind of body a response carries, from its Content-Type and, failing that, its first bytes. */
export type ContentKind = "html" | "pdf" | "json" | "text" | "binary";

export function contentKind(contentType: string | undefined, body: Buffer): ContentKind {
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (body.subarray(0, 5).toString("latin1") === "%PDF-" || type === "application/pdf") return "pdf";
  // UTF-16 text holds a NUL in every ASCII character: it is judged on its characters, not its bytes.
  const utf16 = isUtf16(textEncoding(body, contentType));
  const binary = () => (utf16 ? looksBinaryText(decodeText(body.subarray(0, 2048), contentType)) : looksBinary(body));
  if (type === "text/html" || type === "application/xhtml+xml") return binary() ? "binary" : "html";
  if (type === "application/json" || type.endsWith("+json")) return "json";
  if (type.startsWith("text/") || type === "application/xml" || type.endsWith("+xml") || type === "application/javascript") return "text";
  if (type === "" || type === "application/octet-stream") {
    if (binary()) return "binary";
    const start = body.subarray(0, 1024);
    const head = (utf16 ? decodeText(start, contentType) : start.toString("utf8")).trimStart().toLowerCase();
    return head.startsWith("<!doctype html") || head.startsWith("<html") || head.includes("<body") ? "html" : "text";
  }
  return "binary";
}

/** NUL bytes or many control characters in the first KiB: not text, whatever the header says. */
function looksBinary(body: Buffer): boolean {
  const sample = body.subarray(0, 1024);
  let control = 0;
  for (const byte of sample) {
    if (byte === 0) return true;
    if (byte < 9 || (byte > 13 && byte < 32)) control++;
  }
  return sample.length > 0 && control / sample.length > 0.1;
}

/** The same test on decoded characters: NULs, or more than a tenth control characters. */
function looksBinaryText(text: string): boolean {
  let control = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0) return true;
    if (code < 9 || (code > 13 && code < 32)) control++;
  }
  return text.length > 0 && control / text.length > 0.1;
}
