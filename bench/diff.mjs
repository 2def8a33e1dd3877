// Change-tracking benchmark: two generated 1 MB markdown pages with 1 % of their lines changed.
// Times `compare` in git-diff mode, the hash-only path (`compare` without modes: normalize and
// sha256 both sides), `gitDiff` alone, and, as the peer, jsdiff's `createTwoFilesPatch` on the
// same texts (the same unified diff, checked equal, without the structured form).
// Also one fully rewritten page, where plain Myers would take seconds. Prints; asserts nothing.
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from "diff";
import { compare, gitDiff } from "../dist/changes/index.js";
import { random, sentence } from "./random-text.mjs";

const PASSES = Number(process.env.BENCH_PASSES ?? 15);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const TARGET_BYTES = 1_000_000;

/** A markdown page of about `bytes`: headings, paragraphs, lists, links, blank lines between. */
function page(seed, bytes) {
  const rnd = random(seed);
  const lines = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const kind = i % 9;
    let line;
    if (kind === 0) line = `## ${sentence(rnd, 3)} ${i}`;
    else if (kind < 4) line = `${sentence(rnd, 12 + Math.floor(rnd() * 20))} (${i}).`;
    else if (kind < 7) line = `- [${sentence(rnd, 3)}](https://example.com/${i}) ${sentence(rnd, 5)}`;
    else line = `| ${i} | ${sentence(rnd, 2)} | $${(rnd() * 100).toFixed(2)} |`;
    lines.push(line, "");
    size += line.length + 2;
  }
  return lines;
}

/** A share of the non-blank lines edited, followed by a new line, or deleted (a third each). */
function mutate(lines, seed, share) {
  const rnd = random(seed);
  const out = [];
  let changed = 0;
  for (const line of lines) {
    if (line === "" || rnd() >= share) {
      out.push(line);
      continue;
    }
    changed++;
    const what = rnd();
    if (what < 1 / 3) out.push(`${line} (updated)`);
    else if (what < 2 / 3) out.push(line, `new line ${changed}: ${line.slice(0, 40)}`);
  }
  return { lines: out, changed };
}

function median(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function measure(tasks) {
  const samples = Object.fromEntries(Object.keys(tasks).map((name) => [name, []]));
  for (let pass = 0; pass < WARMUP + PASSES; pass++) {
    for (const [name, task] of Object.entries(tasks)) {
      const start = process.hrtime.bigint();
      task();
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (pass >= WARMUP) samples[name].push(ms);
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([name, list]) => [name, median(list)]));
}

export function run() {
  const base = page(1, TARGET_BYTES);
  // Every other line is blank, so touching 2 % of the non-blank lines changes 1 % of all lines.
  const { lines: edited, changed } = mutate(base, 2, 0.02);
  const previous = `${base.join("\n")}\n`;
  const current = `${edited.join("\n")}\n`;
  const rewritten = `${page(3, TARGET_BYTES).join("\n")}\n`;
  const at = "2026-01-01T00:00:00.000Z";
  const input = (markdown, modes) => ({ previous: { markdown: previous, statusCode: 200, scrapedAt: at }, current: { markdown, statusCode: 200 }, modes });

  const check = compare(input(current, ["git-diff"]));
  const patch = createTwoFilesPatch("previous", "current", previous, current, undefined, undefined, { context: 3, headerOptions: FILE_HEADERS_ONLY });
  if (check.changeStatus !== "changed" || check.diff.text !== patch) throw new Error("compare's diff differs from createTwoFilesPatch");
  const file = check.diff.json.files[0];

  const figures = measure({
    gitDiff: () => compare(input(current, ["git-diff"])),
    hashOnly: () => compare(input(current, [])),
    diffOnly: () => gitDiff(previous, current),
    peer: () => createTwoFilesPatch("previous", "current", previous, current, undefined, undefined, { context: 3, headerOptions: FILE_HEADERS_ONLY }),
  });
  const rewrite = measure({ rewrite: () => compare(input(rewritten, ["git-diff"])) });

  const mb = (text) => (Buffer.byteLength(text) / 1e6).toFixed(2);
  console.log(`diff: previous ${mb(previous)} MB (${base.length} lines), current ${mb(current)} MB; ${changed} lines changed (${((changed / base.length) * 100).toFixed(1)} % of lines): +${file.additions} -${file.deletions} in ${file.chunks.length} chunks`);
  console.log(`  ${PASSES} passes after ${WARMUP} warm-up, interleaved; medians`);
  console.log(`  compare, git-diff mode              ${figures.gitDiff.toFixed(1)} ms   (target < 100 ms)`);
  console.log(`  compare, hash only (no modes)       ${figures.hashOnly.toFixed(1)} ms`);
  console.log(`  gitDiff alone (text + json)         ${figures.diffOnly.toFixed(1)} ms`);
  console.log(`  peer: jsdiff createTwoFilesPatch    ${figures.peer.toFixed(1)} ms   (text only; gitDiff / peer ${(figures.diffOnly / figures.peer).toFixed(2)}x, compare / peer ${(figures.gitDiff / figures.peer).toFixed(2)}x)`);
  console.log(`  compare, git-diff, page rewritten   ${rewrite.rewrite.toFixed(1)} ms   (${mb(rewritten)} MB, no line in common but blanks)`);
}

if (import.meta.url === `file://${process.argv[1]}`) run();
