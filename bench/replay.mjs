// Record and replay benchmark: a crawl of a generated site (bench/crawl.mjs's, ~20 KB pages) on
// 127.0.0.1, run live, run with --record, and replayed from the fixture with the site stopped.
// Figures are medians over the rounds: wall time and CPU time (every thread of the process) of
// each, the overhead of recording, how much faster a replay is, and the fixture's bytes per
// page, then a verdict on each goal (replay ≥ 5× live, recording ≤ 20 % over live). A replay
// takes back the documents recorded with the pages (same options, same version), so it neither
// fetches nor converts. Prints; asserts nothing.
// Build first: it measures dist/ (`npm run build`).
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSite } from "./crawl.mjs";

const PAGES = Number(process.env.BENCH_REPLAY_PAGES ?? 1000);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);

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

async function crawl(base, dir, name, traffic) {
  const { runPipelineFile } = await import("../dist/app/index.js");
  const file = join(dir, "crawl.yaml");
  writeFileSync(file, `version: 1\nname: replaybench\nconcurrency: ${CONCURRENCY}\nperHostConcurrency: ${CONCURRENCY}\nsteps:\n  - id: site\n    crawl:\n      url: ${base}/\n      limit: ${PAGES}\n      sitemap: skip\n      crawlEntireDomain: true\n      scrapeOptions: { formats: [markdown] }\n`);
  let stored = 0;
  const start = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const result = await runPipelineFile(file, { db: join(dir, `${name}.db`), allowPrivateNetwork: true, ...traffic, onEvent: (e) => void (e.type === "document-stored" && stored++) });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const used = process.cpuUsage(cpu);
  cpuSeconds[name].push((used.user + used.system) / 1e6);
  if (!result.ok || result.status !== "succeeded") throw new Error(`${name} failed: ${JSON.stringify(result.ok ? result.status : result.diagnostics)}`);
  if (stored !== PAGES) throw new Error(`${name} stored ${stored} pages, not ${PAGES}`);
  return seconds;
}

/** CPU seconds of each run by kind (the site, in the same process, answers only live and recording runs). */
const cpuSeconds = { live: [], record: [], replay: [] };

export async function run() {
  const live = [];
  const recording = [];
  const replay = [];
  let fixtureBytes = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const dir = mkdtempSync(join(tmpdir(), "scrapeline-replay-bench-"));
    const fixture = join(dir, "fixture");
    const site = await startSite(PAGES);
    try {
      // Who goes first alternates, so a warm-up favours neither.
      if (round % 2 === 0) {
        live.push(await crawl(site.url, dir, "live", {}));
        recording.push(await crawl(site.url, dir, "record", { record: fixture }));
      } else {
        recording.push(await crawl(site.url, dir, "record", { record: fixture }));
        live.push(await crawl(site.url, dir, "live", {}));
      }
      await site.close();
      replay.push(await crawl(site.url, dir, "replay", { replay: fixture }));
      fixtureBytes = bytesUnder(fixture);
    } finally {
      await site.close().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const [l, r, p] = [median(live), median(recording), median(replay)];
  console.log(`${PAGES}-page crawl, concurrency ${CONCURRENCY}, median of ${ROUNDS} round(s)`);
  console.log(`  live:     ${l.toFixed(2)} s`);
  console.log(`  --record: ${r.toFixed(2)} s  (${(((r - l) / l) * 100).toFixed(1)} % over live)`);
  console.log(`  --replay: ${p.toFixed(2)} s  (${(l / p).toFixed(2)}× live's speed; the site stopped)`);
  console.log(`  fixture:  ${(fixtureBytes / 1024 / 1024).toFixed(2)} MB, ${(fixtureBytes / PAGES / 1024).toFixed(1)} KB per page`);
  const [cl, cr, cp] = [median(cpuSeconds.live), median(cpuSeconds.record), median(cpuSeconds.replay)];
  console.log(`  CPU:      live ${cl.toFixed(2)} s, --record ${cr.toFixed(2)} s (${(((cr - cl) / cl) * 100).toFixed(1)} % over), --replay ${cp.toFixed(2)} s (${(cl / cp).toFixed(2)}× less)`);
  const verdict = (ok, text) => console.log(`${ok ? "PASS" : "FAIL"} ${text}`);
  verdict(l / p >= 5, `replay ${(l / p).toFixed(2)}× faster than live (goal ≥ 5×)`);
  verdict((r - l) / l <= 0.2, `--record ${(((r - l) / l) * 100).toFixed(1)} % over live (goal ≤ 20 %)`);
}
