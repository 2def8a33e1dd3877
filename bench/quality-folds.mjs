// The development half of the article-extraction benchmark split in two folds by a stable hash of
// the page's file name (the first hex digit of its sha1, even or odd), scored apart, with the
// Readability corpus alongside. A rule is kept only when it helps both folds: one tuned to a few
// pages shows up as a gain on one fold and nothing or a loss on the other.
// `BENCH_DUMP=file.json` writes each page's text, to compare two builds page by page.
// Build first: it measures dist/ (`npm run build`). Asserts nothing.
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { articleBenchmark, load, readability } from "./quality.mjs";

export function foldOf(key) {
  return Number.parseInt(createHash("sha1").update(`${key}.html.gz`).digest("hex")[0], 16) % 2 === 0 ? "A" : "B";
}

export async function run() {
  const lib = await load();
  const pages = articleBenchmark(lib);
  const line = (title, group) => {
    const s = lib.shingleScores(group.map((p) => p.counts));
    console.log(`${title.padEnd(12)} ${String(group.length).padStart(3)} pages  F1 ${s.f1.toFixed(4)}  P ${s.precision.toFixed(4)}  R ${s.recall.toFixed(4)}`);
  };
  line("fold A", pages.filter((p) => foldOf(p.key) === "A"));
  line("fold B", pages.filter((p) => foldOf(p.key) === "B"));
  line("both", pages);
  const { pages: rpages, tokenF1 } = readability(lib);
  const rs = lib.shingleScores(rpages.map((p) => p.counts));
  console.log(`Readability  ${rpages.length} pages  token F1 ${tokenF1.toFixed(4)}  shingle F1 ${rs.f1.toFixed(4)}`);
  if (process.env.BENCH_DUMP) {
    const dump = Object.fromEntries([...pages, ...rpages].map((p) => [p.key ?? p.name, p.text]));
    writeFileSync(process.env.BENCH_DUMP, JSON.stringify(dump));
  }
}

if (process.argv[1] && new URL(import.meta.url).pathname === process.argv[1]) await run();
