// scrapeline watch with 100 scheduled pipelines, as its own process (the built CLI):
//  1. idle: 100 pipelines whose schedule is not due (once a year); after they are loaded, the
//     process's CPU time over BENCH_IDLE_S seconds (from /proc, as a share of one core) and its
//     peak RSS;
//  2. due together: 100 pipelines on the same 30-second slot against a loopback page, with
//     --max-parallel BENCH_PARALLEL; how long after the slot the last check started and the last
//     one finished, and the process's peak RSS.
// Prints; asserts nothing. Build first: it runs dist/ (`npm run build`).
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const CLI = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
const PIPELINES = Number(process.env.BENCH_PIPELINES ?? 100);
const IDLE_S = Number(process.env.BENCH_IDLE_S ?? 30);
const PARALLEL = Number(process.env.BENCH_PARALLEL ?? 2);
const TICKS = 100; // USER_HZ on Linux

const cpuTicks = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return Number(fields[11]) + Number(fields[12]); // utime + stime
};
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN) / 1024;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function startWatch(dir, db) {
  const child = spawn(process.execPath, [CLI, "watch", dir, "--db", db, "--max-parallel", String(PARALLEL), "--allow-private-network"], { stdio: ["ignore", "pipe", "inherit"] });
  const lines = [];
  let rest = "";
  child.stdout.on("data", (d) => {
    const parts = (rest + d.toString()).split("\n");
    rest = parts.pop();
    for (const line of parts) lines.push({ at: Date.now(), line });
  });
  let peak = 0;
  const sampler = setInterval(() => {
    try {
      peak = Math.max(peak, rssMb(child.pid));
    } catch {}
  }, 200);
  const until = async (pattern, count) => {
    while (lines.filter((l) => pattern.test(l.line)).length < count) await sleep(50);
    return lines.filter((l) => pattern.test(l.line));
  };
  const stop = async () => {
    clearInterval(sampler);
    child.kill("SIGTERM");
    await new Promise((r) => child.once("close", r));
  };
  return { child, lines, until, stop, peak: () => peak };
}

function writePipelines(dir, schedule, url) {
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < PIPELINES; i++) {
    writeFileSync(join(dir, `p${String(i).padStart(3, "0")}.yaml`), `version: 1\nname: p${i}\nschedule: ${schedule}\nsteps:\n  - id: page\n    scrape: { url: "${url}?p=${i}", formats: [markdown, { type: changeTracking }] }\n`);
  }
}

export async function run() {
  const site = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>t</title><main><h1>Price</h1><p>10 EUR</p></main>"));
  await new Promise((r) => site.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${site.address().port}/page`;
  const root = mkdtempSync(join(tmpdir(), "scrapeline-watch-bench-"));
  try {
    // 1. idle
    writePipelines(join(root, "idle"), `{ cron: "0 0 1 1 *", timezone: Europe/Berlin }`, url);
    const idle = startWatch(join(root, "idle"), join(root, "idle.db"));
    await idle.until(/file\.added/, PIPELINES);
    await sleep(3000); // let start-up settle
    const t0 = Date.now();
    const c0 = cpuTicks(idle.child.pid);
    await sleep(IDLE_S * 1000);
    const cpu = (cpuTicks(idle.child.pid) - c0) / TICKS / ((Date.now() - t0) / 1000);
    const idleRss = rssMb(idle.child.pid);
    const idlePeak = idle.peak();
    await idle.stop();
    console.log(`idle, ${PIPELINES} scheduled pipelines: CPU ${(cpu * 100).toFixed(2)} % of a core over ${IDLE_S} s; RSS ${idleRss.toFixed(1)} MB (peak ${idlePeak.toFixed(1)} MB)`);

    // 2. due together
    writePipelines(join(root, "due"), `{ every: 30s, minIntervalSeconds: 30 }`, url);
    const due = startWatch(join(root, "due"), join(root, "due.db"));
    await due.until(/file\.added/, PIPELINES);
    const started = await due.until(/check\.started/, PIPELINES);
    const finished = await due.until(/check\.(completed|partial|failed)/, PIPELINES);
    const slot = Date.parse(/slot=(\S+)/.exec(started[0].line)[1]);
    const lastStart = Math.max(...started.slice(0, PIPELINES).map((l) => l.at));
    const lastEnd = Math.max(...finished.slice(0, PIPELINES).map((l) => l.at));
    const failed = finished.slice(0, PIPELINES).filter((l) => !/check\.completed/.test(l.line)).length;
    const overlaps = due.lines.filter((l) => /skipped_overlap/.test(l.line)).length;
    const duePeak = due.peak();
    await due.stop();
    console.log(`${PIPELINES} pipelines due in the same slot, --max-parallel ${PARALLEL}: last started ${((lastStart - slot) / 1000).toFixed(2)} s after the slot, last finished ${((lastEnd - slot) / 1000).toFixed(2)} s after it; ${failed} not completed, ${overlaps} skipped_overlap; peak RSS ${duePeak.toFixed(1)} MB`);
  } finally {
    site.close();
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
