// Benchmark: start-up of `scrapeline --help`, `validate` of one file and of 50 pipelines, against
// bare `node` start-up measured in the same run (the floor any Node CLI pays). Prints milliseconds,
// the margin over the floor and the targets; asserts nothing.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const FILES = 50;

function makeCorpus() {
  const dir = mkdtempSync(join(tmpdir(), "scrapeline-bench-"));
  const examples = readdirSync("pipelines").map((f) => readFileSync(join("pipelines", f), "utf8"));
  for (let i = 0; i < FILES; i++) {
    // The examples, renamed, plus a larger generated one every fifth file.
    const base = examples[i % examples.length].replace(/^name: .*$/m, `name: bench-${i}`);
    const extra = i % 5 === 0 ? base.replace(/^steps:\n/m, `steps:\n${Array.from({ length: 20 }, (_, k) => `  - id: extra${k}\n    scrape:\n      url: https://example.com/${k}\n      formats: [markdown, links, { type: changeTracking, modes: [git-diff] }]\n      actions:\n        - { type: click, selector: "#more" }\n        - { type: wait, milliseconds: 500 }\n`).join("")}`) : base;
    writeFileSync(join(dir, `p${String(i).padStart(2, "0")}.yaml`), extra);
  }
  return dir;
}

function time(args) {
  const samples = [];
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint();
    const r = spawnSync(process.execPath, args, { encoding: "utf8" });
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
    if (r.status !== 0) throw new Error(`${args.join(" ")} exited ${r.status}: ${r.stdout}${r.stderr}`);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)], min: samples[0] };
}

export function run() {
  const dir = makeCorpus();
  // One file without a JSON Schema of its own (docs.yaml) and one with an extract schema (demo.yaml),
  // which is checked against the meta-schema (and compiled by ajv only when its compile could fail).
  const plain = join(dir, "p02.yaml");
  const withSchema = join(dir, "p01.yaml");
  // Interleaved, so a change in the machine's speed moves every figure alike.
  const figures = { node: [], help: [], one: [], schema: [], all: [] };
  for (let round = 0; round < 3; round++) {
    figures.node.push(time(["-e", "0"]).median);
    figures.help.push(time(["dist/cli/main.js", "--help"]).median);
    figures.one.push(time(["dist/cli/main.js", "validate", plain]).median);
    figures.schema.push(time(["dist/cli/main.js", "validate", withSchema]).median);
    figures.all.push(time(["dist/cli/main.js", "validate", dir]).median);
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const node = median(figures.node);
  const row = (label, ms, target) => console.log(`  ${label.padEnd(34)} ${ms.toFixed(1).padStart(7)} ms   floor + ${(ms - node).toFixed(1).padStart(6)} ms   ${target}`);
  console.log(`start-up: 3 rounds of ${RUNS} runs each, interleaved (median of round medians)`);
  console.log(`  ${"node -e 0 (start-up floor)".padEnd(34)} ${node.toFixed(1).padStart(7)} ms`);
  row("scrapeline --help", median(figures.help), "target: floor + 100 ms");
  row("scrapeline validate (1 file)", median(figures.one), "target: floor + 100 ms");
  row("  … with an extract schema", median(figures.schema), "(checked against the meta-schema)");
  row(`scrapeline validate (${FILES} files)`, median(figures.all), "target: < 500 ms in all");
  console.log(`  above the floor, per file of ${FILES}      ${((median(figures.all) - node) / FILES).toFixed(2)} ms`);
}

if (import.meta.url === `file://${process.argv[1]}`) run();
