import type { Line } from "./lines.js";

/** Consecutive lines read as one unit: a paragraph (or heading) or one list item. */
export interface Block {
  kind: "paragraph" | "list-item";
  /** The lines joined, hyphenated line ends mended; a list item's text keeps its marker. */
  text: string;
  /** Font size of the block's first line. */
  size: number;
  lineCount: number;
}

/** Bullet glyphs that start a list item, and the plain-text markers Markdown already understands. */
const BULLET = /^(?:[•●▪◦‣∙○■□▸►➢✓✔]\s*|[-–*+]\s+)/u;
const NUMBERED = /^(?:\(?\d{1,3}[.)]|\(?[a-z][.)])\s+/u;
/** A sentence end, after which an indented line starts a new paragraph. */
const SENTENCE_END = /[.!?:;"”’)]$/u;

/** Whether a line opens a list item. */
export function isListItem(text: string): boolean {
  return BULLET.test(text) || NUMBERED.test(text);
}

/**
 * Splits a page's lines into blocks. A new block starts at a list marker, when the baseline moves
 * up (a new column or an out-of-order stream), when the font size changes by more than 15%, when
 * the vertical gap is clearly wider than the page's usual line spacing, or at an indented line
 * after a sentence end.
 */
export function blocksOf(lines: readonly Line[]): Block[] {
  const spacing = lineSpacing(lines);
  const blocks: Block[] = [];
  let group: Line[] = [];
  const flush = () => {
    const first = group[0];
    if (first !== undefined) {
      blocks.push({ kind: isListItem(first.text) ? "list-item" : "paragraph", text: joinLines(group.map((l) => l.text)), size: first.size, lineCount: group.length });
    }
    group = [];
  };
  let left = Infinity;
  for (const line of lines) {
    const previous = group[group.length - 1];
    if (previous !== undefined && startsBlock(previous, line, left, spacing)) flush();
    if (group.length === 0) left = line.x;
    left = Math.min(left, line.x);
    group.push(line);
  }
  flush();
  return blocks;
}

function startsBlock(previous: Line, line: Line, left: number, spacing: number): boolean {
  if (isListItem(line.text)) return true;
  const size = Math.max(previous.size, line.size);
  if (size / Math.min(previous.size, line.size) > 1.15) return true;
  const drop = previous.y - line.y;
  if (drop < -0.5 * size) return true;
  if (drop > Math.min(spacing * 1.3, 1.75) * size) return true;
  return line.x - left > 0.8 * line.size && SENTENCE_END.test(previous.text);
}

/**
 * The page's ordinary line spacing as a multiple of the font size: the lower quartile of the
 * baseline drops between same-size lines (paragraph gaps are the larger drops), 1.2 without any.
 */
function lineSpacing(lines: readonly Line[]): number {
  const ratios: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const a = lines[i - 1]!;
    const b = lines[i]!;
    if (Math.max(a.size, b.size) / Math.min(a.size, b.size) > 1.15) continue;
    const ratio = (a.y - b.y) / b.size;
    if (ratio > 0.5 && ratio < 3) ratios.push(ratio);
  }
  if (ratios.length === 0) return 1.2;
  ratios.sort((x, y) => x - y);
  return ratios[Math.floor((ratios.length - 1) / 4)]!;
}

/**
 * Joins a block's lines with spaces. A line ending in a soft hyphen, or in a hyphen between
 * lower-case letters, is joined to the next without it ("exam-" + "ple" reads "example").
 */
export function joinLines(lines: readonly string[]): string {
  let text = "";
  for (const line of lines) {
    if (text === "") text = line;
    else if (text.endsWith("\u00ad")) text = text.slice(0, -1) + line;
    else if (/\p{Ll}-$/u.test(text) && /^\p{Ll}/u.test(line)) text = text.slice(0, -1) + line;
    else text += " " + line;
  }
  return text.replace(/\u00ad/g, "");
}
