import type { El } from "../dom.js";
import { MarkdownWriter } from "./writer.js";

/** The attribute a data table carries (a spreadsheet's sheet) to stay a table even with one column. */
export const SHEET_TABLE = "data-sheet";

/** Renders an element's children into a writer (the converter's own walk). */
export type RenderChildren = (el: El, writer: MarkdownWriter) => void;

/**
 * A GFM table: the first row is the header, cells are rendered on one line with pipes escaped, and
 * colspans become empty cells so columns stay aligned. Returns false for layout tables (one
 * column, no rows, or tables nested inside), which the caller renders as plain blocks; a table
 * marked as a sheet (SHEET_TABLE) is data and stays a table with one column.
 */
export function renderTable(table: El, writer: MarkdownWriter, renderChildren: RenderChildren): boolean {
  const rows: El[] = [];
  let caption: El | undefined;
  let nested = false;
  const collect = (el: El): void => {
    for (const child of el.children) {
      if (typeof child === "string") continue;
      if (child.tag === "tr") rows.push(child);
      else if (child.tag === "caption") caption ??= child;
      else if (child.tag === "thead" || child.tag === "tbody" || child.tag === "tfoot") collect(child);
    }
  };
  collect(table);
  const grid: string[][] = [];
  let width = 0;
  // One writer for every cell, emptied after each: a writer per cell was 3 % of what a crawl of pages with tables allocated.
  const sub = new MarkdownWriter({ singleLine: true });
  for (const row of rows) {
    const cells: string[] = [];
    for (const cell of row.children) {
      if (typeof cell === "string" || (cell.tag !== "td" && cell.tag !== "th")) continue;
      if (!nested && containsTable(cell)) nested = true;
      renderChildren(cell, sub);
      cells.push(sub.finishInline());
      sub.restart();
      const span = Math.min(Number.parseInt(cell.attr("colspan") ?? "1", 10) || 1, 50);
      for (let i = 1; i < span; i++) cells.push("");
    }
    if (cells.length > width) width = cells.length;
    grid.push(cells);
  }
  if (rows.length === 0 || width === 0 || (width === 1 && table.attr(SHEET_TABLE) === undefined) || nested) return false;
  if (caption !== undefined) {
    writer.block(2);
    renderChildren(caption, writer);
  }
  const lines: string[] = [];
  for (let r = 0; r < grid.length; r++) {
    const cells = grid[r]!;
    while (cells.length < width) cells.push("");
    lines.push(`| ${cells.join(" | ")} |`);
    if (r === 0) lines.push(`|${" --- |".repeat(width)}`);
  }
  writer.block(2);
  writer.lines(lines);
  writer.block(2);
  return true;
}

function containsTable(el: El): boolean {
  for (const child of el.children) {
    if (typeof child === "string") continue;
    if (child.tag === "table" || containsTable(child)) return true;
  }
  return false;
}
