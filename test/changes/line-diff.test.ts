import { describe, expect, it } from "vitest";
import { diffLineArrays, splitLines, type LineRun } from "../../src/changes/line-diff.js";
import { seeded } from "./helpers.js";

const sides = (runs: LineRun[]): [string, string] => [
  runs.filter((r) => r.op !== "add").flatMap((r) => r.lines).join(""),
  runs.filter((r) => r.op !== "del").flatMap((r) => r.lines).join(""),
];
const ANCHORED = { whole: 0, stretch: 0 };

describe("splitLines", () => {
  it("keeps each line's newline, like jsdiff's diffLines", () => {
    expect(splitLines("")).toEqual([]);
    expect(splitLines("a")).toEqual(["a"]);
    expect(splitLines("a\n")).toEqual(["a\n"]);
    expect(splitLines("a\r\n\nb")).toEqual(["a\r\n", "\n", "b"]);
  });
});

describe("diffLineArrays", () => {
  it("whole-text Myers within budget", () => {
    expect(diffLineArrays(["a\n", "b\n", "c\n"], ["a\n", "c\n"])).toEqual([
      { op: "same", lines: ["a\n"] },
      { op: "del", lines: ["b\n"] },
      { op: "same", lines: ["c\n"] },
    ]);
  });

  it("anchored path: lines unique on both sides anchor the stretches", () => {
    const previous = ["x\n", "1\n", "p\n", "2\n", "p\n", "3\n"];
    const current = ["1\n", "q\n", "2\n", "3\n", "y\n"];
    expect(diffLineArrays(previous, current, ANCHORED)).toEqual([
      { op: "del", lines: ["x\n"] },
      { op: "same", lines: ["1\n"] },
      { op: "del", lines: ["p\n"] },
      { op: "add", lines: ["q\n"] },
      { op: "same", lines: ["2\n"] },
      { op: "del", lines: ["p\n"] },
      { op: "same", lines: ["3\n"] },
      { op: "add", lines: ["y\n"] },
    ]);
  });

  it("anchored path: a moved block keeps the longest ordered chain", () => {
    const previous = ["a\n", "b\n", "c\n", "d\n", "e\n"];
    const current = ["d\n", "a\n", "b\n", "c\n", "e\n"];
    expect(diffLineArrays(previous, current, ANCHORED)).toEqual([
      { op: "add", lines: ["d\n"] },
      { op: "same", lines: ["a\n", "b\n", "c\n"] },
      { op: "del", lines: ["d\n"] },
      { op: "same", lines: ["e\n"] },
    ]);
  });

  it("anchored path: nothing in common but repeated lines becomes one deletion and one addition", () => {
    expect(diffLineArrays(["a\n", "\n", "b\n", "\n", "c\n"], ["x\n", "\n", "y\n", "\n", "z\n"], ANCHORED)).toEqual([
      { op: "del", lines: ["a\n", "\n", "b\n", "\n", "c\n"] },
      { op: "add", lines: ["x\n", "\n", "y\n", "\n", "z\n"] },
    ]);
  });

  it("any budget: the runs rebuild both texts and never repeat an operation", () => {
    const random = seeded(3);
    const pool = ["a\n", "b\n", "c\n", "\n", "d\n", "e", "f\n", "g\n"];
    for (let k = 0; k < 3000; k++) {
      const text = (): string[] => Array.from({ length: Math.floor(random() * 16) }, () => pool[Math.floor(random() * pool.length)]!);
      const previous = text();
      const current = text();
      const runs = diffLineArrays(previous, current, { whole: k % 4, stretch: k % 3 });
      expect(sides(runs)).toEqual([previous.join(""), current.join("")]);
      for (const [i, run] of runs.entries()) {
        expect(run.lines.length).toBeGreaterThan(0);
        if (i > 0) expect(run.op).not.toBe(runs[i - 1]!.op);
      }
    }
  });
});
