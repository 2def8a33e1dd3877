// Record and replay benchmark: a crawl of a generated site (bench/crawl.mjs's, ~20 KB pages)
// served on 127.0.0.1 by a child process, crawled by this one three ways: live, with --record,
// and replayed from a fixture recorded before the rounds (the site's request count shows the
// replay asked it nothing). Every round runs the three, in an order that turns each round, so a
// change of the machine's load falls on all of them alike. Figures: wall and CPU time (every
// thread of this process; the site's work is the child's) of each, medians and spread over the
// rounds; recording's overhead and replay's speed-up, each the median of the rounds' own ratios
// (the three runs of a round saw the same load); the fixture's bytes per page; the load average;
// then a verdict on each goal (replay ≥ 5× live, recording ≤ 20 % over live). Prints; asserts nothing.
// Build first: it measures dist/ (`npm run build`).
import { fork } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const PAGES = Number(process.env.BENCH_REPLAY_PAGES ?? 1000);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const KINDS = ["live", "record", "replay"];

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function bytesUnder(dir) {
  let total = 0;
  for (const name of readdirSync(dir, { recursive: true })) {
    const stat = statSync(join(dir, name));
    if (stat.isFile()) total += stat.size;
  }
  return total;
}

/** The site in a child process (its serving is not this process's CPU); `requests()` asks how many it answered. */
async function startSiteChild() {
  const child = fork(fileURLToPath(import.meta.url), ["site", String(PAGES)], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const replies = [];
  child.on("message", (message) => replies.shift()?.(message));
  const ask = (what) => new Promise((resolve) => (replies.push(resolve), what && child.send(what)));
  const { url } = await ask();
  return { url, requests: async () => (await ask("requests")).requests, close: () => child.kill() };
}

if (process.argv[2] === "site") {
  const { startSite } = await import("./crawl.mjs");
  const site = await startSite(Number(process.argv[3]));
  process.on("message", () => process.send({ requests: site.requests }));
  process.send({ url: site.url });
}

async function crawl(base, dir, name, traffic) {
  const { runPipelineFile } = await import("../dist/app/index.js");
  const file = join(dir, "crawl.yaml");
  writeFileSync(file, `version: 1\nname: replaybench\nconcurrency: ${CONCURRENCY}\nperHostConcurrency: ${CONCURRENCY}\nsteps:\n  - id: site\n    crawl:\n      url: ${base}/\n      limit: ${PAGES}\n      sitemap: skip\n      crawlEntireDomain: true\n      scrapeOptions: { formats: [markdown] }\n`);
  const db = join(dir, `${name}.db`);
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${db}${suffix}`, { force: true });
  let stored = 0;
  const start = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const result = await runPipelineFile(file, { db, allowPrivateNetwork: true, ...traffic, onEvent: (e) => void (e.type === "document-stored" && stored++) });
  const wall = Number(process.hrtime.bigint() - start) / 1e9;
  const used = process.cpuUsage(cpu);
  if (!result.ok || result.status !== "succeeded") throw new Error(`${name} failed: ${JSON.stringify(result.ok ? result.status : result.diagnostics)}`);
  if (stored !== PAGES) throw new Error(`${name} stored ${stored} pages, not ${PAGES}`);
  return { wall, cpu: (used.user + used.system) / 1e6 };
}

const seconds = (values) => `${median(values).toFixed(2)} s (${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)})`;
const percent = (ratio) => `${((ratio - 1) * 100).toFixed(1)} %`;
const load = () => loadavg().map((l) => l.toFixed(1)).join(" ");

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), "scrapeline-replay-bench-"));
  const site = await startSiteChild();
  const figures = Object.fromEntries(KINDS.map((kind) => [kind, { wall: [], cpu: [] }]));
  const rounds = [];
  const loadBefore = load();
  let fixtureBytes = 0;
  try {
    // The fixture every round replays, recorded before the rounds (a warm-up as well).
    const fixture = join(dir, "fixture");
    await crawl(site.url, dir, "record", { record: fixture });
    fixtureBytes = bytesUnder(fixture);
    for (let round = 0; round < ROUNDS; round++) {
      const order = KINDS.map((_, i) => KINDS[(i + round) % KINDS.length]);
      const figure = {};
      for (const kind of order) {
        const asked = await site.requests();
        const traffic = kind === "record" ? { record: join(dir, `fixture-${round}`) } : kind === "replay" ? { replay: fixture } : {};
        figure[kind] = await crawl(site.url, dir, kind, traffic);
        if (kind === "replay" && (await site.requests()) !== asked) throw new Error("the replay asked the site for pages");
        if (kind === "record") rmSync(traffic.record, { recursive: true, force: true });
        figures[kind].wall.push(figure[kind].wall);
        figures[kind].cpu.push(figure[kind].cpu);
      }
      rounds.push({ record: figure.record.wall / figure.live.wall, replay: figure.live.wall / figure.replay.wall, recordCpu: figure.record.cpu / figure.live.cpu, replayCpu: figure.live.cpu / figure.replay.cpu });
    }
  } finally {
    site.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const ratio = (key) => median(rounds.map((r) => r[key]));
  const [record, replay] = [ratio("record"), ratio("replay")];
  console.log(`${PAGES}-page crawl, concurrency ${CONCURRENCY}, ${ROUNDS} round(s) of live, --record and --replay in turn; medians (min–max); load average ${loadBefore} before, ${load()} after`);
  console.log(`  wall:  live ${seconds(figures.live.wall)}, --record ${seconds(figures.record.wall)}, --replay ${seconds(figures.replay.wall)}`);
  console.log(`  CPU:   live ${seconds(figures.live.cpu)}, --record ${seconds(figures.record.cpu)}, --replay ${seconds(figures.replay.cpu)}`);
  console.log(`  --record over live, by round: wall ${rounds.map((r) => percent(r.record)).join(", ")}; median ${percent(record)} (CPU ${percent(ratio("recordCpu"))})`);
  console.log(`  --replay faster than live, by round: wall ${rounds.map((r) => `${r.replay.toFixed(2)}×`).join(", ")}; median ${replay.toFixed(2)}× (CPU ${ratio("replayCpu").toFixed(2)}×; the site answered it nothing)`);
  console.log(`  fixture: ${(fixtureBytes / 1024 / 1024).toFixed(2)} MB, ${(fixtureBytes / PAGES / 1024).toFixed(1)} KB per page`);
  const verdict = (ok, text) => console.log(`${ok ? "PASS" : "FAIL"} ${text}`);
  verdict(replay >= 5, `replay ${replay.toFixed(2)}× faster than live (goal ≥ 5×)`);
  verdict(record - 1 <= 0.2, `--record ${percent(record)} over live (goal ≤ 20 %)`);
}
