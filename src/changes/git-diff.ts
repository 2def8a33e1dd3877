/**
 * git-diff mode: a unified diff of the previous and the current markdown (`text`), and the same
 * diff as the structure the npm parse-diff package makes of it (`json`), built here directly
 * from the hunks. The text is what jsdiff's `createTwoFilesPatch("previous", "current", …)`
 * prints with file headers only (`--- previous` / `+++ current`, no `Index:` or `===` lines) and
 * git's three lines of context.
 */
import { diffLineArrays, splitLines, type LineRun } from "./line-diff.js";
import type { DiffChange, DiffChunk, DiffFile, GitDiff } from "./types.js";

/** Options of `gitDiff`. */
export interface GitDiffOptions {
  /** Unchanged lines shown around each change. Default 3, as git. */
  context?: number;
}

const NO_NEWLINE = "\\ No newline at end of file";
const FROM = "previous";
const TO = "current";

interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  /** Lines with their ` `/`+`/`-` prefix and no `\n`; the no-newline marker where due. */
  lines: string[];
}

/** The unified diff and its parse-diff structure for two markdown texts. */
export function gitDiff(previous: string, current: string, options: GitDiffOptions = {}): GitDiff {
  const runs = diffLineArrays(splitLines(previous), splitLines(current));
  const hunks = toHunks(runs, options.context ?? 3);
  const file: DiffFile = { chunks: [], deletions: 0, additions: 0, from: FROM, to: TO };
  const text = [`--- ${FROM}`, `+++ ${TO}`];
  for (const hunk of hunks) {
    const chunk = toChunk(hunk);
    file.chunks.push(chunk);
    for (const change of chunk.changes) {
      if (change.content === NO_NEWLINE) continue;
      if (change.type === "add") file.additions++;
      else if (change.type === "del") file.deletions++;
    }
    text.push(chunk.content);
    for (const line of hunk.lines) text.push(line);
  }
  return { text: `${text.join("\n")}\n`, json: { files: [file] } };
}

/** Groups runs into hunks with `context` lines around changes, as jsdiff's structuredPatch. */
function toHunks(runs: LineRun[], context: number): Hunk[] {
  const hunks: Hunk[] = [];
  let oldLine = 1;
  let newLine = 1;
  let open: { oldStart: number; newStart: number; lines: string[] } | undefined;
  const close = (trailing: string[]): void => {
    if (!open) return;
    for (const line of trailing) open.lines.push(` ${line}`);
    hunks.push({
      oldStart: open.oldStart,
      oldLines: oldLine - open.oldStart + trailing.length,
      newStart: open.newStart,
      newLines: newLine - open.newStart + trailing.length,
      lines: markMissingNewlines(open.lines),
    });
    open = undefined;
  };
  for (const [i, run] of runs.entries()) {
    const count = run.lines.length;
    if (run.op === "same") {
      if (open) {
        if (count <= context * 2 && i < runs.length - 1) for (const line of run.lines) open.lines.push(` ${line}`);
        else close(run.lines.slice(0, Math.min(count, context)));
      }
      oldLine += count;
      newLine += count;
      continue;
    }
    if (!open) {
      const before = runs[i - 1];
      const lead = before && context > 0 ? before.lines.slice(-context) : [];
      open = { oldStart: oldLine - lead.length, newStart: newLine - lead.length, lines: lead.map((line) => ` ${line}`) };
    }
    const sign = run.op === "add" ? "+" : "-";
    for (const line of run.lines) open.lines.push(sign + line);
    if (run.op === "add") newLine += count;
    else oldLine += count;
  }
  close([]);
  return hunks;
}

/** Drops each line's `\n`; a line without one is the last of its text and gets the marker. */
function markMissingNewlines(lines: string[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    if (line.endsWith("\n")) out.push(line.slice(0, -1));
    else out.push(line, NO_NEWLINE);
  }
  return out;
}

/**
 * One parse-diff chunk. An empty side is shown one line early (`-0,0`), as in every unified
 * diff. The no-newline marker becomes a copy of the change before it with the marker as content,
 * which is what parse-diff does.
 */
function toChunk(hunk: Hunk): DiffChunk {
  const oldStart = hunk.oldLines === 0 ? hunk.oldStart - 1 : hunk.oldStart;
  const newStart = hunk.newLines === 0 ? hunk.newStart - 1 : hunk.newStart;
  const changes: DiffChange[] = [];
  let ln1 = oldStart;
  let ln2 = newStart;
  for (const content of hunk.lines) {
    if (content === NO_NEWLINE) {
      const last = changes[changes.length - 1];
      if (last) changes.push({ ...last, content });
    } else if (content.startsWith("-")) changes.push({ type: "del", del: true, ln: ln1++, content });
    else if (content.startsWith("+")) changes.push({ type: "add", add: true, ln: ln2++, content });
    else changes.push({ type: "normal", normal: true, ln1: ln1++, ln2: ln2++, content });
  }
  return { content: `@@ -${oldStart},${hunk.oldLines} +${newStart},${hunk.newLines} @@`, changes, oldStart, oldLines: hunk.oldLines, newStart, newLines: hunk.newLines };
}
