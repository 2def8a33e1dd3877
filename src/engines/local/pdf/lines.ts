/** A piece of text placed on a page, in PDF user-space points (y grows upwards). */
export interface TextRun {
  text: string;
  /** Baseline origin. */
  x: number;
  y: number;
  /** Advance width of the whole run. */
  width: number;
  /** Font size, as scaled by the text matrix. */
  size: number;
  /** The producer marked the end of a line after this run. */
  endsLine: boolean;
}

/** One rebuilt line of text: its words, left edge, baseline and dominant font size. */
export interface Line {
  text: string;
  x: number;
  y: number;
  size: number;
}

interface Draft {
  text: string;
  x: number;
  y: number;
  size: number;
  /** Right edge of the last run, to measure the gap to the next one. */
  end: number;
  last: TextRun | undefined;
  /** Characters written per font size, to pick the dominant size. */
  sizes: Map<number, number>;
  pendingSpace: boolean;
  breakNext: boolean;
}

/** Control characters (and the NUL pdf.js gives unmapped glyphs) are dropped; soft hyphens are kept for joining. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/**
 * Groups text runs, in content-stream order, into lines: a run starts a new line when its baseline
 * moves by more than half a font size or the previous run ended a line. Runs on one line are joined
 * with a space when the gap between them is wider than a quarter of the font size.
 */
export function linesOf(runs: readonly TextRun[]): Line[] {
  const lines: Line[] = [];
  let current: Draft | undefined;
  const flush = () => {
    if (current === undefined) return;
    const text = current.text.replace(/\s+/g, " ").trim();
    if (text !== "") lines.push({ text, x: current.x, y: current.y, size: dominant(current.sizes) ?? current.size });
    current = undefined;
  };
  for (const run of runs) {
    const text = run.text.replace(CONTROL, "").replace(/[\t\r\n]/g, " ");
    const size = run.size > 0 && Number.isFinite(run.size) ? run.size : 1;
    if (current !== undefined && (current.breakNext || Math.abs(run.y - current.y) > 0.5 * Math.max(size, current.size))) flush();
    if (text.trim() === "") {
      if (current !== undefined) {
        if (text !== "") current.pendingSpace = true;
        if (run.endsLine) current.breakNext = true;
      }
      continue;
    }
    if (current === undefined) {
      current = { text: "", x: run.x, y: run.y, size, end: run.x, last: undefined, sizes: new Map(), pendingSpace: false, breakNext: false };
    } else if (isOverprint(current.last, run, text)) {
      // The same text drawn again a hair to the side: simulated bold, not new words.
      current.breakNext ||= run.endsLine;
      continue;
    } else {
      const gap = run.x - current.end;
      const space = current.pendingSpace || gap > 0.25 * Math.min(size, current.size);
      if (space && !/\s$/.test(current.text) && !/^\s/.test(text)) current.text += " ";
    }
    current.text += text;
    current.end = run.x + run.width;
    current.last = { ...run, text };
    current.pendingSpace = false;
    current.breakNext = run.endsLine;
    const key = Math.round(size * 2) / 2;
    current.sizes.set(key, (current.sizes.get(key) ?? 0) + text.trim().length);
  }
  flush();
  return lines;
}

function isOverprint(last: TextRun | undefined, run: TextRun, text: string): boolean {
  return last !== undefined && last.text === text && Math.abs(last.x - run.x) < 0.15 * run.size && Math.abs(last.y - run.y) < 0.15 * run.size;
}

/** The key with the largest weight; the larger key wins ties. */
export function dominant(weights: ReadonlyMap<number, number>): number | undefined {
  let best: number | undefined;
  let bestWeight = -1;
  for (const [key, weight] of weights) {
    if (weight > bestWeight || (weight === bestWeight && best !== undefined && key > best)) {
      best = key;
      bestWeight = weight;
    }
  }
  return best;
}
