import { diffLineArrays, splitLines } from "../../changes/index.js";

/** A stretch of a two-text diff: kept, deleted or added lines, with the number of its first line in each text. */
export interface DiffStretch {
  op: "same" | "del" | "add";
  /** Without their line ends. */
  lines: string[];
  /** 1-based numbers of the first line in the previous and the current text. */
  oldStart: number;
  newStart: number;
}

/** Line diff of two texts (the line diff of change tracking), numbered for display. */
export function lineDiff(previous: string, current: string): { stretches: DiffStretch[]; added: number; removed: number } {
  const runs = diffLineArrays(splitLines(previous), splitLines(current));
  const stretches: DiffStretch[] = [];
  let oldLine = 1;
  let newLine = 1;
  let added = 0;
  let removed = 0;
  for (const run of runs) {
    const lines = run.lines.map((line) => line.replace(/\r?\n$/, ""));
    stretches.push({ op: run.op, lines, oldStart: oldLine, newStart: newLine });
    if (run.op !== "add") oldLine += lines.length;
    if (run.op !== "del") newLine += lines.length;
    if (run.op === "add") added += lines.length;
    if (run.op === "del") removed += lines.length;
  }
  return { stretches, added, removed };
}
