import * as XLSX from "@e965/xlsx";
import { unzipSync } from "fflate";
import { ScrapelineError } from "../../../core/index.js";
import { isZip, zipNames } from "./zip.js";

/** The formats a parse converts, detected from the content. */
export type DocumentFormat = "html" | "pdf" | "docx" | "odt" | "rtf" | "epub" | "pptx" | "odp" | "xlsx" | "xls" | "ods" | "csv";

export const ACCEPTED = "HTML/XHTML, PDF, DOCX/DOCM, ODT, RTF, EPUB, PPTX, ODP, XLSX/XLSM, XLS, ODS and CSV";

/** Content types answered in metadata.contentType. */
export const CONTENT_TYPES: Record<DocumentFormat, string> = {
  html: "text/html",
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  odt: "application/vnd.oasis.opendocument.text",
  rtf: "application/rtf",
  epub: "application/epub+zip",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  odp: "application/vnd.oasis.opendocument.presentation",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  xls: "application/vnd.ms-excel",
  ods: "application/vnd.oasis.opendocument.spreadsheet",
  csv: "text/csv",
};

/** What each file-name extension claims to be: a file whose content says otherwise is mislabelled. */
const EXTENSIONS: Record<string, DocumentFormat> = {
  html: "html", htm: "html", xhtml: "html", pdf: "pdf", docx: "docx", docm: "docx", dotx: "docx", odt: "odt", rtf: "rtf", epub: "epub",
  pptx: "pptx", pptm: "pptx", odp: "odp", xlsx: "xlsx", xlsm: "xlsx", xlsb: "xlsx", xls: "xls", ods: "ods", csv: "csv", tsv: "csv",
};

/** Formats with no well-kept JavaScript reader: named in the error rather than guessed at. */
const LEGACY: Record<string, string> = { doc: "Word 97-2003 (.doc)", ppt: "PowerPoint 97-2003 (.ppt)", pps: "PowerPoint 97-2003 (.pps)" };

const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/**
 * The format of a file, from its bytes (magic numbers, the entries of a zip, the streams of an OLE
 * compound file); the name only breaks ties and catches a mislabelled file. Throws a bad-content
 * error that says what the file is and which formats are accepted.
 */
export function detectFormat(bytes: Uint8Array, name: string): DocumentFormat {
  const extension = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase() ?? "";
  const format = sniff(bytes, name, extension);
  const claimed = EXTENSIONS[extension];
  if (claimed && claimed !== format && !(claimed === "csv" && format === "html")) {
    throw new ScrapelineError("bad-content", `${name} is named .${extension} but its content is ${describe(format)}: refused as mislabelled (rename it to match its content)`);
  }
  return format;
}

function sniff(bytes: Uint8Array, name: string, extension: string): DocumentFormat {
  if (bytes.length === 0) throw new ScrapelineError("bad-content", `${name} is empty`);
  if (startsWith(bytes, "%PDF-")) return "pdf";
  if (startsWith(bytes, "{\\rtf")) return "rtf";
  if (isZip(bytes)) return zipFormat(bytes, name);
  if (OLE.every((b, i) => bytes[i] === b)) return oleFormat(bytes, name);
  if (LEGACY[extension]) throw unsupported(name, LEGACY[extension]!);
  if (looksBinary(bytes)) throw new ScrapelineError("bad-content", `${name} is not a document this tool reads (binary content of an unknown kind); accepted: ${ACCEPTED}`);
  const head = new TextDecoder("utf-8").decode(bytes.subarray(0, 2048)).replace(/^\uFEFF/, "").trimStart().toLowerCase();
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!doctype html|<html)/.test(head) || (extension !== "csv" && extension !== "tsv" && /<(body|head|p|div|h1)[\s>]/.test(head))) return "html";
  // Text named as another format is reported as mislabelled by detectFormat.
  if (extension === "" || EXTENSIONS[extension]) return "csv";
  throw new ScrapelineError("bad-content", `${name} is plain text, not a document this tool reads; accepted: ${ACCEPTED} (name a comma-separated file .csv)`);
}

function zipFormat(bytes: Uint8Array, name: string): DocumentFormat {
  const names = new Set(zipNames(bytes, name));
  const mimetype = names.has("mimetype") ? storedMimetype(bytes) || smallEntry(bytes, "mimetype") : "";
  if (mimetype === "application/epub+zip") return "epub";
  if (mimetype.startsWith("application/vnd.oasis.opendocument.text")) return "odt";
  if (mimetype.startsWith("application/vnd.oasis.opendocument.spreadsheet")) return "ods";
  if (mimetype.startsWith("application/vnd.oasis.opendocument.presentation")) return "odp";
  if (names.has("word/document.xml")) return "docx";
  if (names.has("xl/workbook.xml") || names.has("xl/workbook.bin")) return "xlsx";
  if (names.has("ppt/presentation.xml")) return "pptx";
  if (names.has("content.xml") && names.has("META-INF/manifest.xml")) throw unsupported(name, `an OpenDocument file of type ${mimetype || "unknown"}`);
  throw new ScrapelineError("bad-content", `${name} is a zip archive but not a document this tool reads; accepted: ${ACCEPTED}`);
}

/** The ODF/EPUB `mimetype` entry: stored uncompressed, first, at a fixed offset (30 + its name). */
function storedMimetype(bytes: Uint8Array): string {
  const nameLength = bytes[26]! | (bytes[27]! << 8);
  const extra = bytes[28]! | (bytes[29]! << 8);
  const size = bytes[18]! | (bytes[19]! << 8) | (bytes[20]! << 16);
  const method = bytes[8]! | (bytes[9]! << 8);
  const entry = new TextDecoder().decode(bytes.subarray(30, 30 + nameLength));
  if (entry !== "mimetype" || method !== 0 || size > 200) return "";
  const start = 30 + nameLength + extra;
  return new TextDecoder().decode(bytes.subarray(start, start + size)).trim();
}

/** A short entry (at most 200 bytes declared) inflated on its own. */
function smallEntry(bytes: Uint8Array, name: string): string {
  try {
    const found = unzipSync(bytes, { filter: (file) => file.name === name && file.originalSize <= 200 })[name];
    return found ? new TextDecoder().decode(found).trim() : "";
  } catch {
    return "";
  }
}

function oleFormat(bytes: Uint8Array, name: string): DocumentFormat {
  let streams: string[];
  try {
    streams = XLSX.CFB.read(bytes, { type: "buffer" }).FullPaths.map((p: string) => p.replace(/\/$/, "").split("/").pop()!.toLowerCase());
  } catch (error) {
    throw new ScrapelineError("bad-content", `${name} is a damaged or truncated Office 97-2003 file (${(error as Error).message})`);
  }
  const has = (s: string) => streams.includes(s.toLowerCase());
  if (has("EncryptionInfo") || has("EncryptedPackage")) throw new ScrapelineError("bad-content", `${name} is password-protected (encrypted); remove the password and parse it again`);
  if (has("Workbook") || has("Book")) return "xls";
  if (has("WordDocument")) throw unsupported(name, LEGACY.doc!);
  if (has("PowerPoint Document")) throw unsupported(name, LEGACY.ppt!);
  throw new ScrapelineError("bad-content", `${name} is an Office 97-2003 compound file of an unknown kind; accepted: ${ACCEPTED}`);
}

function unsupported(name: string, what: string): ScrapelineError {
  return new ScrapelineError("unsupported", `${name} is ${what}, which has no reader here; save it as a newer format (DOCX, PPTX, ODT…) — accepted: ${ACCEPTED}`);
}

function describe(format: DocumentFormat): string {
  return format === "csv" ? "plain text" : format === "html" ? "HTML" : format.toUpperCase();
}

function startsWith(bytes: Uint8Array, text: string): boolean {
  if (bytes.length < text.length) return false;
  for (let i = 0; i < text.length; i++) if (bytes[i] !== text.charCodeAt(i)) return false;
  return true;
}

/** NUL bytes or many control characters in the first KiB (UTF-16 text is not a format here). */
function looksBinary(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, 1024);
  let control = 0;
  for (const byte of sample) {
    if (byte === 0) return true;
    if (byte < 9 || (byte > 13 && byte < 32)) control++;
  }
  return control / sample.length > 0.1;
}
