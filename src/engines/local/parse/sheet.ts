import * as XLSX from "@e965/xlsx";
import { ScrapelineError } from "../../../core/index.js";
import { clean, isoDate, type Converted } from "./converted.js";
import type { DocumentFormat } from "./detect.js";
import type { ParseLimits } from "./limits.js";
import { checkZip } from "./zip.js";
import { escapeHtml } from "./xml.js";
import { SHEET_TABLE } from "../html/markdown/table.js";

/**
 * XLSX/XLSM, XLS, ODS and CSV to HTML with SheetJS: one table per sheet under an `<h2>` with the
 * sheet's name (CSV: one table, no heading), the first row as the header, at most `maxRows` rows
 * per sheet (the rest counted in a warning), and at most `limits.maxCells` cells in all.
 */
export function sheetToHtml(bytes: Uint8Array, format: DocumentFormat, maxRows: number, limits: ParseLimits, label: string): Converted {
  if (format === "xlsx" || format === "ods") checkZip(bytes, limits, label);
  let workbook: XLSX.WorkBook;
  try {
    const options: XLSX.ParsingOptions = { sheetRows: maxRows, dense: true, cellDates: true, cellHTML: false };
    workbook = format === "csv" ? XLSX.read(csvText(bytes), { ...options, type: "string", raw: true }) : XLSX.read(bytes, { ...options, type: "buffer" });
  } catch (error) {
    const message = (error as Error).message;
    if (/password|encrypt/i.test(message)) throw new ScrapelineError("bad-content", `${label} is password-protected (encrypted); remove the password and parse it again`);
    throw new ScrapelineError("bad-content", `${label} could not be read as a spreadsheet (${message})`);
  }
  const warnings: string[] = [];
  let cells = 0;
  const parts: string[] = [];
  for (const name of workbook.SheetNames) {
    const sheet = workbook.Sheets[name];
    if (!sheet) continue;
    const range = sheet["!ref"] ? XLSX.utils.decode_range(sheet["!ref"]) : undefined;
    if (format !== "csv") parts.push(`<h2>${escapeHtml(name)}</h2>`);
    if (!range) continue;
    const rows = range.e.r - range.s.r + 1;
    const columns = range.e.c - range.s.c + 1;
    cells += rows * columns;
    if (cells > limits.maxCells) throw new ScrapelineError("too-large", `${label} has more than ${limits.maxCells} cells in its first ${maxRows} rows per sheet: refused (lower maxRows, or split the file)`);
    parts.push(table(sheet, range));
    const full = sheet["!fullref"] ? XLSX.utils.decode_range(sheet["!fullref"]) : range;
    const more = full.e.r - range.e.r;
    if (more > 0) warnings.push(`sheet "${name}": ${more} row(s) after the first ${maxRows} were left out (maxRows)`);
  }
  const props = workbook.Props ?? {};
  const out: Converted = { html: parts.join("\n"), sheets: [...workbook.SheetNames], warnings };
  const title = clean(props.Title);
  const author = clean(props.Author);
  const modified = isoDate(props.ModifiedDate);
  if (title) out.title = title;
  if (author) out.author = author;
  if (modified) out.modifiedTime = modified;
  return out;
}

function table(sheet: XLSX.WorkSheet, range: XLSX.Range): string {
  const dense = (sheet as unknown as { "!data"?: Array<Array<XLSX.CellObject | undefined> | undefined> })["!data"];
  const rows: string[] = [];
  for (let r = range.s.r; r <= range.e.r; r++) {
    const tag = r === range.s.r ? "th" : "td";
    const cells: string[] = [];
    for (let c = range.s.c; c <= range.e.c; c++) {
      const cell = dense ? dense[r]?.[c] : sheet[XLSX.utils.encode_cell({ r, c })];
      cells.push(`<${tag}>${cellHtml(cell)}</${tag}>`);
    }
    rows.push(`<tr>${cells.join("")}</tr>`);
  }
  // A sheet is data whatever its width: the markdown writer keeps a one-column sheet as a table.
  return `<table ${SHEET_TABLE}>${rows.join("\n")}</table>`;
}

function cellHtml(cell: XLSX.CellObject | undefined): string {
  if (!cell) return "";
  let text: string;
  if (cell.t === "d" && cell.v instanceof Date) text = cell.v.toISOString().replace(/T00:00:00\.000Z$/, "");
  else text = cell.w ?? (cell.v === undefined || cell.v === null ? "" : String(cell.v));
  const escaped = escapeHtml(text).replace(/\r?\n/g, "<br>");
  const target = cell.l?.Target;
  return target ? `<a href="${escapeHtml(target)}">${escaped}</a>` : escaped;
}

/** CSV text: UTF-8 (a BOM dropped), else Latin-1 when the bytes are not valid UTF-8. */
function csvText(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes).replace(/^\uFEFF/, "");
  } catch {
    return new TextDecoder("latin1").decode(bytes);
  }
}
