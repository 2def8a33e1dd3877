import { blocksOf, type Block } from "./blocks.js";
import { dominant, type Line } from "./lines.js";

/** A block at least this much bigger than the body font may be a heading. */
const HEADING_RATIO = 1.2;
/** Longer text is a large-print paragraph, not a heading. */
const HEADING_MAX_CHARS = 200;
const HEADING_MAX_LINES = 3;

const BULLET_GLYPH = /^(?:[•●▪◦‣∙○■□▸►➢✓✔]\s*|[–*+]\s+)/u;
const MARKDOWN_ITEM = /^(?:- |\d{1,3}[.)] )/;

/**
 * Renders the lines of each page as Markdown: blocks separated by a blank line, list items by a
 * line break, pages by a blank line. Blocks in a clearly larger font than the body text (the
 * size most characters are set in) become headings: the largest such size `#`, the others `##`.
 * Returns "" when there is no text, else text ending in one newline.
 */
export function renderMarkdown(pages: readonly (readonly Line[])[]): string {
  const body = bodySize(pages);
  const blocks = pages.map((lines) => blocksOf(lines));
  const headingSizes = [...new Set(blocks.flat().filter((b) => isHeading(b, body)).map((b) => round(b.size)))];
  const top = Math.max(...headingSizes);
  const out: string[] = [];
  let previousItem = false;
  for (const block of blocks.flat()) {
    let text: string;
    let item = false;
    if (isHeading(block, body)) text = (round(block.size) === top ? "# " : "## ") + block.text;
    else if (block.kind === "list-item") {
      text = block.text.replace(BULLET_GLYPH, "- ");
      item = MARKDOWN_ITEM.test(text);
    } else text = escapeStart(block.text);
    if (out.length > 0) out.push(item && previousItem ? "\n" : "\n\n");
    out.push(text);
    previousItem = item;
  }
  return out.length === 0 ? "" : out.join("") + "\n";
}

function isHeading(block: Block, body: number | undefined): boolean {
  return (
    body !== undefined &&
    // "1. Introduction" set large is a numbered heading, not a list item.
    (block.kind === "paragraph" || /^\d/.test(block.text)) &&
    block.size >= body * HEADING_RATIO &&
    block.lineCount <= HEADING_MAX_LINES &&
    block.text.length <= HEADING_MAX_CHARS &&
    /\p{L}/u.test(block.text)
  );
}

/** The font size most characters are set in, over all pages. */
function bodySize(pages: readonly (readonly Line[])[]): number | undefined {
  const weights = new Map<number, number>();
  for (const line of pages.flat()) weights.set(round(line.size), (weights.get(round(line.size)) ?? 0) + line.text.length);
  return dominant(weights);
}

function round(size: number): number {
  return Math.round(size * 2) / 2;
}

/** Keeps a paragraph that happens to start with `#` or `>` from reading as a heading or quote. */
function escapeStart(text: string): string {
  return /^[#>]/.test(text) ? "\\" + text : text;
}
