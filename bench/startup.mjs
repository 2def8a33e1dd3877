// Benchmark: start-up of the built CLI, the whole process, against bare `node -e 0` on the same
// Node (the floor any Node CLI pays): `--help`, `--version` and `validate` of the demo pipeline.
// Each command runs in turn with the floor (A B A B …), so the ratio and the difference are taken
// pair by pair and a change in the machine's speed moves both alike; medians are printed, with a
// verdict against the target of floor + 100 ms. Asserts nothing.
import { spawnSync } from "node:child_process";
import { availableParallelism, loadavg } from "node:os";
import { fileURLToPath } from "node:url";

const RUNS = Number(process.env.BENCH_RUNS ?? 21);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const TARGET_MS = 100;
const main = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
const demo = fileURLToPath(new URL("../pipelines/demo.yaml", import.meta.url));

const COMMANDS = [
  { label: "scrapeline --help", args: [main, "--help"] },
  { label: "scrapeline --version", args: [main, "--version"] },
  { label: "scrapeline validate pipelines/demo.yaml", args: [main, "validate", demo] },
];

/** Wall time of one whole process, in milliseconds; a failed command stops the benchmark. */
function once(args) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { encoding: "utf8" });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`node ${args.join(" ")} exited ${result.status}: ${result.stdout}${result.stderr}`);
  return ms;
}

const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

export function run() {
  console.log(`start-up on Node ${process.versions.node}: ${RUNS} runs of each command in turn with node -e 0 (after ${WARMUP} not counted); medians`);
  const floor = [];
  const rows = [];
  for (const command of COMMANDS) {
    for (let i = 0; i < WARMUP; i++) once(command.args), once(["-e", "0"]);
    const own = [];
    const ratios = [];
    const diffs = [];
    for (let i = 0; i < RUNS; i++) {
      const a = once(command.args);
      const b = once(["-e", "0"]);
      own.push(a);
      floor.push(b);
      ratios.push(a / b);
      diffs.push(a - b);
    }
    rows.push({ label: command.label, ms: median(own), ratio: median(ratios), diff: median(diffs) });
  }
  console.log(`  ${"node -e 0 (the floor)".padEnd(42)} ${median(floor).toFixed(1).padStart(7)} ms`);
  for (const row of rows) {
    console.log(`  ${row.label.padEnd(42)} ${row.ms.toFixed(1).padStart(7)} ms   ${row.ratio.toFixed(2).padStart(5)}× the floor   floor ${row.diff < 0 ? "-" : "+"} ${Math.abs(row.diff).toFixed(1).padStart(5)} ms`);
  }
  const [load] = loadavg();
  const cpus = availableParallelism();
  if (load > cpus) console.log(`  (load average ${load.toFixed(1)} on ${cpus} processors: the machine is busy, so every figure is slower and noisier than on a quiet one)`);
  const over = rows.filter((row) => row.diff > TARGET_MS);
  console.log(
    over.length === 0
      ? `verdict: within the target (floor + ${TARGET_MS} ms) on Node ${process.versions.node}: every command`
      : `verdict: over the target (floor + ${TARGET_MS} ms) on Node ${process.versions.node}: ${over.map((row) => `${row.label} (floor + ${row.diff.toFixed(0)} ms)`).join(", ")}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) run();
