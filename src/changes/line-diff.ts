/**
 * The line diff behind git-diff mode. Texts that differ by a bounded number of lines get jsdiff's
 * Myers diff, exactly what its `diffLines` gives. Beyond that budget Myers costs seconds on a
 * large rewritten page, so the texts are cut at lines that occur once in each (the anchors of a
 * patience diff, longest increasing run) and each stretch between anchors is diffed on its own;
 * a stretch with no anchor and too many edits becomes one deletion plus one addition. No clock
 * is read: the same texts always give the same diff.
 */
import { diffArrays } from "diff";

/** Lines kept, deleted from the previous text, or added in the current one. */
export interface LineRun {
  op: "same" | "del" | "add";
  lines: string[];
}

/** Edit budget of the whole-text Myers attempt. */
export const WHOLE_TEXT_EDITS = 500;
/** Edit budget of the Myers attempt on each stretch between anchors. */
export const STRETCH_EDITS = 200;

/** Splits like jsdiff's `diffLines`: every line keeps its `\n`; the last may have none. */
export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  while (start < text.length) {
    const end = text.indexOf("\n", start);
    if (end === -1) {
      lines.push(text.slice(start));
      break;
    }
    lines.push(text.slice(start, end + 1));
    start = end + 1;
  }
  return lines;
}

/** The runs that turn `previous` into `current`, in order. Budgets are exposed for tests. */
export function diffLineArrays(previous: string[], current: string[], budgets = { whole: WHOLE_TEXT_EDITS, stretch: STRETCH_EDITS }): LineRun[] {
  const runs: LineRun[] = [];
  const whole = myers(previous, current, budgets.whole);
  if (whole) {
    for (const run of whole) push(runs, run.op, run.lines);
    return runs;
  }
  // Work list, last item first, so stretches come out in text order without recursion.
  type Task = { same: string[] } | { previous: string[]; current: string[] };
  const tasks: Task[] = [{ previous, current }];
  while (tasks.length > 0) {
    const task = tasks.pop()!;
    if ("same" in task) {
      push(runs, "same", task.same);
      continue;
    }
    const { previous: a, current: b } = task;
    let head = 0;
    while (head < a.length && head < b.length && a[head] === b[head]) head++;
    let tail = 0;
    while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
    push(runs, "same", a.slice(0, head));
    const midA = a.slice(head, a.length - tail);
    const midB = b.slice(head, b.length - tail);
    const suffix = a.slice(a.length - tail);
    const direct = midA.length > 0 && midB.length > 0 ? myers(midA, midB, budgets.stretch) : undefined;
    const anchors = direct || midA.length === 0 || midB.length === 0 ? [] : uniqueAnchors(midA, midB);
    if (anchors.length === 0) {
      if (direct) for (const run of direct) push(runs, run.op, run.lines);
      else {
        push(runs, "del", midA);
        push(runs, "add", midB);
      }
      push(runs, "same", suffix);
      continue;
    }
    tasks.push({ same: suffix });
    let endA = midA.length;
    let endB = midB.length;
    for (let k = anchors.length - 1; k >= 0; k--) {
      const [i, j] = anchors[k]!;
      tasks.push({ previous: midA.slice(i + 1, endA), current: midB.slice(j + 1, endB) });
      tasks.push({ same: [midA[i]!] });
      endA = i;
      endB = j;
    }
    tasks.push({ previous: midA.slice(0, endA), current: midB.slice(0, endB) });
  }
  return runs;
}

function myers(a: string[], b: string[], maxEditLength: number): LineRun[] | undefined {
  const changes = diffArrays(a, b, { maxEditLength });
  return changes?.map((change) => ({ op: change.added ? "add" : change.removed ? "del" : "same", lines: change.value }));
}

/** Appends lines, merging with the last run when the operation is the same. */
function push(runs: LineRun[], op: LineRun["op"], lines: string[]): void {
  if (lines.length === 0) return;
  const last = runs[runs.length - 1];
  if (last?.op === op) for (const line of lines) last.lines.push(line);
  else runs.push({ op, lines: lines.slice() });
}

/**
 * Pairs [i, j] of lines that occur exactly once in `a` and once in `b`, keeping the longest
 * chain increasing in both (patience sorting, O(n log n)).
 */
function uniqueAnchors(a: string[], b: string[]): Array<[number, number]> {
  const seen = new Map<string, { inA: number; inB: number; at: number }>();
  for (const line of a) {
    const entry = seen.get(line);
    if (entry) entry.inA++;
    else seen.set(line, { inA: 1, inB: 0, at: -1 });
  }
  for (const [j, line] of b.entries()) {
    const entry = seen.get(line);
    if (entry) {
      entry.inB++;
      entry.at = j;
    }
  }
  const pairs: Array<[number, number]> = [];
  for (const [i, line] of a.entries()) {
    const entry = seen.get(line)!;
    if (entry.inA === 1 && entry.inB === 1) pairs.push([i, entry.at]);
  }
  // tails[k]: index in `pairs` of the smallest j ending an increasing chain of length k + 1.
  const tails: number[] = [];
  const before = new Array<number>(pairs.length).fill(-1);
  for (const [p, [, j]] of pairs.entries()) {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (pairs[tails[mid]!]![1] < j) low = mid + 1;
      else high = mid;
    }
    if (low > 0) before[p] = tails[low - 1]!;
    tails[low] = p;
  }
  const chain: Array<[number, number]> = [];
  for (let p = tails.length > 0 ? tails[tails.length - 1]! : -1; p !== -1; p = before[p]!) chain.push(pairs[p]!);
  return chain.reverse();
}
