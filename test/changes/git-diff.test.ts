import { applyPatch, createTwoFilesPatch, FILE_HEADERS_ONLY } from "diff";
import { describe, expect, it } from "vitest";
import { gitDiff, type GitDiff } from "../../src/changes/index.js";
import { seeded } from "./helpers.js";

const NO_NEWLINE = "\\ No newline at end of file";

/** What jsdiff prints for the same texts. */
function reference(previous: string, current: string): string {
  return createTwoFilesPatch("previous", "current", previous, current, undefined, undefined, { context: 3, headerOptions: FILE_HEADERS_ONLY });
}

/**
 * Checks the structure against the text and both texts: each chunk's header and lines are the
 * text's, in order; every line number points at that line in the previous/current markdown;
 * the counts agree; and the text applied to `previous` gives `current`.
 */
function checkConsistent(previous: string, current: string, diff: GitDiff): void {
  const oldLines = previous.split("\n");
  const newLines = current.split("\n");
  const textLines = diff.text.split("\n");
  expect(textLines.slice(0, 2)).toEqual(["--- previous", "+++ current"]);
  const file = diff.json.files[0]!;
  expect(diff.json.files).toHaveLength(1);
  let at = 2;
  let additions = 0;
  let deletions = 0;
  for (const chunk of file.chunks) {
    expect(textLines[at++]).toBe(chunk.content);
    expect(chunk.content).toBe(`@@ -${chunk.oldStart},${chunk.oldLines} +${chunk.newStart},${chunk.newLines} @@`);
    let oldCount = 0;
    let newCount = 0;
    for (const change of chunk.changes) {
      expect(textLines[at++]).toBe(change.content);
      if (change.content === NO_NEWLINE) continue;
      const line = change.content.slice(1);
      if (change.type === "normal") {
        expect([oldLines[change.ln1 - 1], newLines[change.ln2 - 1]]).toEqual([line, line]);
        oldCount++;
        newCount++;
      } else if (change.type === "del") {
        expect(oldLines[change.ln - 1]).toBe(line);
        oldCount++;
        deletions++;
      } else {
        expect(newLines[change.ln - 1]).toBe(line);
        newCount++;
        additions++;
      }
    }
    expect([oldCount, newCount]).toEqual([chunk.oldLines, chunk.newLines]);
  }
  expect(textLines.slice(at)).toEqual([""]);
  expect([file.additions, file.deletions]).toEqual([additions, deletions]);
  expect(applyPatch(previous, diff.text)).toBe(current);
}

describe("gitDiff", () => {
  it("a modification: text and parse-diff structure", () => {
    const diff = gitDiff("a\nb\nc\n", "a\nB\nc\n");
    expect(diff.text).toBe("--- previous\n+++ current\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
    expect(diff.json).toEqual({
      files: [
        {
          chunks: [
            {
              content: "@@ -1,3 +1,3 @@",
              changes: [
                { type: "normal", normal: true, ln1: 1, ln2: 1, content: " a" },
                { type: "del", del: true, ln: 2, content: "-b" },
                { type: "add", add: true, ln: 2, content: "+B" },
                { type: "normal", normal: true, ln1: 3, ln2: 3, content: " c" },
              ],
              oldStart: 1,
              oldLines: 3,
              newStart: 1,
              newLines: 3,
            },
          ],
          deletions: 1,
          additions: 1,
          from: "previous",
          to: "current",
        },
      ],
    });
  });

  it("an addition and a deletion in the middle, with three lines of context", () => {
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
    const previous = `${lines.join("\n")}\n`;
    const added = gitDiff(previous, `${[...lines.slice(0, 10), "inserted", ...lines.slice(10)].join("\n")}\n`);
    expect(added.text).toBe("--- previous\n+++ current\n@@ -8,6 +8,7 @@\n line 8\n line 9\n line 10\n+inserted\n line 11\n line 12\n line 13\n");
    expect(added.json.files[0]!.chunks[0]!.changes[3]).toEqual({ type: "add", add: true, ln: 11, content: "+inserted" });
    const deleted = gitDiff(previous, `${[...lines.slice(0, 10), ...lines.slice(11)].join("\n")}\n`);
    expect(deleted.text).toBe("--- previous\n+++ current\n@@ -8,7 +8,6 @@\n line 8\n line 9\n line 10\n-line 11\n line 12\n line 13\n line 14\n");
    expect(deleted.json.files[0]!.chunks[0]!.changes[3]).toEqual({ type: "del", del: true, ln: 11, content: "-line 11" });
    checkConsistent(previous, `${[...lines.slice(0, 10), "inserted", ...lines.slice(10)].join("\n")}\n`, added);
  });

  it("changes far apart make separate chunks; close ones merge", () => {
    const lines = Array.from({ length: 40 }, (_, i) => `l${i + 1}`);
    const far = lines.map((l, i) => (i === 2 || i === 30 ? `${l}!` : l));
    const near = lines.map((l, i) => (i === 2 || i === 8 ? `${l}!` : l));
    const farDiff = gitDiff(`${lines.join("\n")}\n`, `${far.join("\n")}\n`);
    const nearDiff = gitDiff(`${lines.join("\n")}\n`, `${near.join("\n")}\n`);
    expect(farDiff.json.files[0]!.chunks.map((c) => c.content)).toEqual(["@@ -1,6 +1,6 @@", "@@ -28,7 +28,7 @@"]);
    expect(nearDiff.json.files[0]!.chunks.map((c) => c.content)).toEqual(["@@ -1,12 +1,12 @@"]);
    checkConsistent(`${lines.join("\n")}\n`, `${far.join("\n")}\n`, farDiff);
  });

  it("first and last lines changed", () => {
    const previous = "first\nx\ny\nz\nlast\n";
    const first = gitDiff(previous, "FIRST\nx\ny\nz\nlast\n");
    expect(first.text).toBe("--- previous\n+++ current\n@@ -1,4 +1,4 @@\n-first\n+FIRST\n x\n y\n z\n");
    const last = gitDiff(previous, "first\nx\ny\nz\nLAST\n");
    expect(last.text).toBe("--- previous\n+++ current\n@@ -2,4 +2,4 @@\n x\n y\n z\n-last\n+LAST\n");
    checkConsistent(previous, "FIRST\nx\ny\nz\nlast\n", first);
    checkConsistent(previous, "first\nx\ny\nz\nLAST\n", last);
  });

  it("empty previous: an empty side starts at 0", () => {
    const diff = gitDiff("", "a\nb\n");
    expect(diff.text).toBe("--- previous\n+++ current\n@@ -0,0 +1,2 @@\n+a\n+b\n");
    expect(diff.json.files[0]!.chunks[0]).toEqual({
      content: "@@ -0,0 +1,2 @@",
      changes: [
        { type: "add", add: true, ln: 1, content: "+a" },
        { type: "add", add: true, ln: 2, content: "+b" },
      ],
      oldStart: 0,
      oldLines: 0,
      newStart: 1,
      newLines: 2,
    });
    const emptied = gitDiff("a\nb\n", "");
    expect(emptied.text).toBe("--- previous\n+++ current\n@@ -1,2 +0,0 @@\n-a\n-b\n");
    checkConsistent("a\nb\n", "", emptied);
  });

  it("texts without a trailing newline: the marker, and parse-diff's copy of the change before it", () => {
    const diff = gitDiff("a\nb", "a\nc");
    expect(diff.text).toBe(`--- previous\n+++ current\n@@ -1,2 +1,2 @@\n a\n-b\n${NO_NEWLINE}\n+c\n${NO_NEWLINE}\n`);
    expect(diff.json.files[0]!.chunks[0]!.changes).toEqual([
      { type: "normal", normal: true, ln1: 1, ln2: 1, content: " a" },
      { type: "del", del: true, ln: 2, content: "-b" },
      { type: "del", del: true, ln: 2, content: NO_NEWLINE },
      { type: "add", add: true, ln: 2, content: "+c" },
      { type: "add", add: true, ln: 2, content: NO_NEWLINE },
    ]);
    expect(diff.json.files[0]).toMatchObject({ additions: 1, deletions: 1 });
    const unchangedLast = gitDiff("a\nb", "A\nb");
    expect(unchangedLast.text).toBe(`--- previous\n+++ current\n@@ -1,2 +1,2 @@\n-a\n+A\n b\n${NO_NEWLINE}\n`);
    expect(unchangedLast.json.files[0]!.chunks[0]!.changes.at(-1)).toEqual({ type: "normal", normal: true, ln1: 2, ln2: 2, content: NO_NEWLINE });
    const newlineAdded = gitDiff("a", "a\n");
    expect(newlineAdded.text).toBe(`--- previous\n+++ current\n@@ -1,1 +1,1 @@\n-a\n${NO_NEWLINE}\n+a\n`);
    for (const [previous, current] of [["a\nb", "a\nc"], ["a\nb", "A\nb"], ["a", "a\n"], ["a\n", "a"], ["x", "y"]] as const) checkConsistent(previous, current, gitDiff(previous, current));
  });

  it("CRLF lines keep their \\r", () => {
    const diff = gitDiff("a\r\nb\r\n", "a\r\nc\r\n");
    expect(diff.text).toBe("--- previous\n+++ current\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+c\r\n");
    checkConsistent("a\r\nb\r\n", "a\r\nc\r\n", diff);
  });

  it("identical texts give a file with no chunks", () => {
    expect(gitDiff("a\n", "a\n")).toEqual({ text: "--- previous\n+++ current\n", json: { files: [{ chunks: [], deletions: 0, additions: 0, from: "previous", to: "current" }] } });
  });

  it("random small texts: the text is jsdiff's and the structure is consistent with it", () => {
    const random = seeded(5);
    const pool = ["a", "b", "c", "", "d e", "  x", "f\r", "# h", "- i", "j"];
    const text = (): string => {
      const n = Math.floor(random() * 12);
      const body = Array.from({ length: n }, () => pool[Math.floor(random() * pool.length)]).join("\n");
      return n > 0 && random() < 0.5 ? `${body}\n` : body;
    };
    for (let k = 0; k < 1500; k++) {
      const previous = text();
      const current = text();
      const diff = gitDiff(previous, current);
      expect(diff.text, JSON.stringify({ previous, current })).toBe(reference(previous, current));
      checkConsistent(previous, current, diff);
    }
  });

  it("a large rewrite takes the anchored path and still gives a valid diff", () => {
    const random = seeded(9);
    const lines = Array.from({ length: 4000 }, (_, i) => (i % 2 ? "" : `paragraph ${i} ${random().toString(36).slice(2)}`));
    // Every third paragraph rewritten, some blocks moved: far beyond the whole-text Myers budget.
    const changed = lines.map((line, i) => (line && i % 6 === 0 ? `${line} (rewritten)` : line));
    const moved = [...changed.slice(2000, 2400), ...changed.slice(0, 2000), ...changed.slice(2400)];
    const previous = `${lines.join("\n")}\n`;
    const current = `${moved.join("\n")}\nno newline at the end`;
    const diff = gitDiff(previous, current);
    checkConsistent(previous, current, diff);
    const file = diff.json.files[0]!;
    expect(file.deletions).toBeLessThan(1500);
  });
});
