import { TextDecoder } from "node:util";

/** How far into a body a `<meta charset>` or XML declaration is looked for. */
const SNIFF_BYTES = 4096;

const META_CHARSET = /<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([\w.:-]+)/i;
const XML_ENCODING = /^\s*<\?xml\b[^>]*?\bencoding\s*=\s*["']([\w.:-]+)["']/i;
const CONTENT_TYPE_CHARSET = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]+))/i;

/**
 * Decodes a body to text. The encoding comes from a byte-order mark, else the Content-Type
 * charset, else a `<meta>` charset (or XML declaration) in the first 4 KiB, else UTF-8 — the
 * order browsers use, so a BOM wins over a header that contradicts it. Unknown labels fall back
 * to UTF-8; undecodable bytes become U+FFFD. Never throws.
 */
export function decodeText(body: Buffer, contentType: string | undefined): string {
  const label = bomEncoding(body) ?? charsetOf(contentType) ?? sniffDeclared(body) ?? "utf-8";
  return decode(body, label);
}

/** The charset parameter of a Content-Type header value, if any. */
export function charsetOf(contentType: string | undefined): string | undefined {
  const match = contentType ? CONTENT_TYPE_CHARSET.exec(contentType) : null;
  const label = (match?.[1] ?? match?.[2])?.trim();
  return label ? label : undefined;
}

function bomEncoding(body: Buffer): string | undefined {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return "utf-8";
  if (body[0] === 0xff && body[1] === 0xfe) return "utf-16le";
  if (body[0] === 0xfe && body[1] === 0xff) return "utf-16be";
  return undefined;
}

function sniffDeclared(body: Buffer): string | undefined {
  const head = body.subarray(0, SNIFF_BYTES).toString("latin1");
  const label = (META_CHARSET.exec(head) ?? XML_ENCODING.exec(head))?.[1];
  if (!label) return undefined;
  // A document that could be read as ASCII to find this declaration is not UTF-16 (HTML spec).
  return /^utf-?16/i.test(label) ? "utf-8" : label;
}

/** windows-1252 at 0x80–0x9F (WHATWG Encoding); elsewhere it matches ISO-8859-1. */
const WINDOWS_1252_HIGH =
  "\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f" +
  "\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178";

function decode(body: Buffer, label: string): string {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label);
  } catch {
    decoder = new TextDecoder("utf-8");
  }
  // Node 20's decoder for windows-1252 (and its aliases latin1, ascii...) is plain ISO-8859-1.
  if (decoder.encoding === "windows-1252") {
    return body.toString("latin1").replace(/[\x80-\x9f]/g, (c) => WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80] ?? c);
  }
  return decoder.decode(body);
}
