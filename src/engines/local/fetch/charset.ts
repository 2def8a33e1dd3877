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
  return decode(body, textEncoding(body, contentType));
}

/**
 * The encoding label `decodeText` reads `body` with. A plain `utf-16` charset takes its byte
 * order from the bytes (little-endian when they do not tell); markup laid out as UTF-16 (one NUL
 * beside each ASCII character) is read as UTF-16 whatever it declares, since only so could its
 * `<meta charset>` be read.
 */
export function textEncoding(body: Buffer, contentType: string | undefined): string {
  const bom = bomEncoding(body);
  if (bom) return bom;
  const declared = charsetOf(contentType);
  if (declared) return /^utf-?16$/i.test(declared) ? (utf16Layout(body) ?? "utf-16le") : declared;
  return utf16Layout(body) ?? sniffDeclared(body) ?? "utf-8";
}

/** Whether `label` names UTF-16 in either byte order. */
export function isUtf16(label: string): boolean {
  return /^utf-?16/i.test(label);
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

/**
 * UTF-16 text without a BOM, told by where its NUL bytes are: the high byte of every ASCII
 * character is 0, so at least a quarter of the pairs hold a NUL on one side and few on the other.
 */
function utf16Layout(body: Buffer): "utf-16le" | "utf-16be" | undefined {
  const pairs = Math.floor(Math.min(body.length, 1024) / 2);
  if (pairs < 2) return undefined;
  let even = 0;
  let odd = 0;
  for (let i = 0; i < pairs * 2; i += 2) {
    if (body[i] === 0) even++;
    if (body[i + 1] === 0) odd++;
  }
  if (odd >= pairs / 4 && even <= odd / 10) return "utf-16le";
  if (even >= pairs / 4 && odd <= even / 10) return "utf-16be";
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
