// Benchmark: `scrapeline validate` over 50 pipelines, against bare `node` start-up measured in the
// same run (the floor any Node CLI pays). Prints milliseconds and the ratio; asserts nothing.
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
  const node = time(["-e", "0"]);
  const validate = time(["dist/cli/main.js", "validate", dir]);
  const perFile = (validate.median - node.median) / FILES;
  console.log(`validate: ${FILES} pipelines, ${RUNS} runs each (median)`);
  console.log(`  node -e 0 (start-up floor)         ${node.median.toFixed(1)} ms`);
  console.log(`  scrapeline validate (${FILES} files)     ${validate.median.toFixed(1)} ms`);
  console.log(`  ratio to bare node start-up        ${(validate.median / node.median).toFixed(2)}x`);
  console.log(`  above the floor, per file          ${perFile.toFixed(2)} ms`);
}

if (import.meta.url === `file://${process.argv[1]}`) run();
