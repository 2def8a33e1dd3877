// Web UI benchmark: a database of 100,000 stored documents (4 runs of 25,000 pages of one
// pipeline, change-tracked: the first all new, then about 1% changed and 0.2% removed each run,
// with their versions and diffs) written through the store, then every page of `scrapeline ui`
// requested over HTTP: the first request (cold: a run's manifest is read once) and the median and
// worst of the next ones. Prints; asserts nothing. UI_BENCH_DOCS sets the number of documents.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MonitorTables, SqliteStore } from "../dist/store/index.js";
import { startUiServer } from "../dist/ui/server.js";
import { gitDiff } from "../dist/changes/index.js";
import { dbSize } from "./db-size.mjs";

const DOCUMENTS = Number(process.env.UI_BENCH_DOCS ?? 100_000);
const RUNS = 4;
const PAGES = Math.ceil(DOCUMENTS / RUNS);
const REPEATS = 7;

function markdown(i, version) {
  const lines = Array.from({ length: 30 }, (_, p) => `Paragraph ${p} of page ${i}: ${"lorem ipsum dolor sit amet ".repeat(3 + ((i + p) % 4))}`);
  if (version > 0) lines[7] = `Price of page ${i}: ${10 + version} EUR`;
  return `# Page ${i}\n\n${lines.join("\n\n")}\n`;
}

const url = (i) => `https://shop.example/products/${String(i).padStart(6, "0")}`;

/** Writes the database through the store, as runs do: a transaction per page, a snapshot per version. */
function build(db) {
  const store = new SqliteStore(db);
  const version = new Map();
  const snapshotIds = new Map();
  let runId = 0;
  for (let r = 0; r < RUNS; r++) {
    const run = store.createRun({ pipelineName: "shop", pipelineFile: "shop.yaml", pipelineHash: "h", planJson: "{}", engine: "local" });
    runId = run.id;
    store.startStep(run.id, "products", "scrape");
    const at = new Date().toISOString();
    for (let i = 0; i < PAGES; i++) {
      const before = version.get(i);
      const removed = r > 0 && i % 500 === r;
      const changed = r > 0 && !removed && i % 100 === r;
      const next = before === undefined ? 0 : changed ? before + 1 : before;
      const text = removed ? "# Not found\n" : markdown(i, next);
      const status = before === undefined ? "new" : removed ? "removed" : changed ? "changed" : "same";
      const change = { previousScrapeAt: before === undefined ? null : at, changeStatus: status, visibility: "visible" };
      if (changed) change.diff = gitDiff(markdown(i, before), text);
      const same = status === "same";
      store.saveDocument(
        { runId: run.id, stepId: "products", url: url(i), fetchedAt: at, creditsUsed: 1, document: { markdown: text, metadata: { sourceURL: url(i), url: url(i), statusCode: removed ? 404 : 200, title: `Page ${i}` }, changeTracking: change } },
        { url: url(i), tag: null, fingerprint: `${i}:${removed ? "gone" : next}`, normalizerKey: "k", markdown: text, statusCode: removed ? 404 : 200, ...(same ? { sameAs: snapshotIds.get(i) } : {}) },
      );
      if (!same) snapshotIds.set(i, store.db.prepare("SELECT id FROM snapshots WHERE url = ? ORDER BY version DESC LIMIT 1").pluck().get(url(i)));
      if (!removed) version.set(i, next);
      if (i % 997 === 0) store.saveFailure({ runId: run.id, stepId: "products", url: `${url(i)}/reviews`, error: "HTTP 500", kind: "http-status" });
    }
    store.finishStep(run.id, "products", "succeeded");
    store.finishRun(run.id, "succeeded");
  }
  store.close();
  return runId;
}

/** A monitor of the pipeline with a check per run and a failed notification on each. */
function addMonitor(db, lastRun) {
  const store = new SqliteStore(db);
  const tables = new MonitorTables(store.db);
  const monitor = tables.upsert({ key: "file:shop", source: "file", name: "shop", file: "shop.yaml", schedule: { cron: "0 6 * * *", timezone: "UTC", jitterSeconds: 0, missed: "once", minIntervalSeconds: 60 } });
  for (let r = 1; r <= lastRun; r++) {
    const check = tables.claim(monitor.id, new Date(Date.UTC(2026, 0, r, 6)).toISOString(), { trigger: "schedule", status: "running" });
    tables.setCheckRun(check.id, r);
    tables.finishCheck(check.id, "completed", { summary: { totalPages: PAGES, same: PAGES, changed: 0, new: 0, removed: 0, error: 0 } });
    tables.addNotifications(check.id, [{ channel: "webhook", target: "https://hooks.example", event: "monitor.check.completed", sent: false, status: 500, attempts: 3, error: "HTTP 500" }]);
  }
  store.close();
  return monitor.id;
}

async function time(base, path) {
  const once = async () => {
    const start = process.hrtime.bigint();
    const res = await fetch(`${base}${path}`);
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body.slice(0, 200)}`);
    return { ms: Number(process.hrtime.bigint() - start) / 1e6, bytes: body.length };
  };
  const cold = await once();
  const warm = [];
  for (let i = 0; i < REPEATS; i++) warm.push((await once()).ms);
  warm.sort((a, b) => a - b);
  return { cold: cold.ms, median: warm[Math.floor(warm.length / 2)], worst: warm[warm.length - 1], bytes: cold.bytes };
}

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), "scrapeline-ui-bench-"));
  const db = join(dir, "ui.db");
  const started = process.hrtime.bigint();
  const last = build(db);
  console.log(`built ${RUNS * PAGES} documents in ${RUNS} runs in ${(Number(process.hrtime.bigint() - started) / 1e9).toFixed(1)} s; database ${(dbSize(db) / 1e6).toFixed(0)} MB`);
  const monitor = addMonitor(db, last);
  const ui = await startUiServer({ db, port: 0 });
  const base = ui.url.replace(/\/$/, "");
  const changedUrl = encodeURIComponent(url(100 + RUNS - 1));
  const pages = [
    ["runs", "/"],
    ["runs, one pipeline, succeeded", "/?pipeline=shop&status=succeeded"],
    ["run (first page of documents)", `/runs/${last}`],
    ["run (documents 20,000+)", `/runs/${last}?step=products&offset=20000`],
    ["run (failures page 5)", `/runs/${last}?foffset=200`],
    ["changes of a run (side by side)", `/runs/${last}/changes`],
    ["changes of a run (inline)", `/runs/${last}/changes?view=inline`],
    ["changes, removed only", `/runs/${last}/changes?status=removed`],
    ["changes of the first run (all new, page 1000)", `/runs/1/changes?offset=20000`],
    ["document (changed, with diff)", `/runs/${last}/doc?step=products&url=${changedUrl}`],
    ["page history", `/history?url=${changedUrl}`],
    ["charts", "/charts?pipeline=shop"],
    ["monitors", "/monitors"],
    ["a monitor (its checks)", `/monitors/${monitor}`],
  ];
  console.log(`${"page".padEnd(48)} ${"cold ms".padStart(9)} ${"median ms".padStart(10)} ${"worst ms".padStart(9)} ${"KB".padStart(7)}`);
  for (const [name, path] of pages) {
    const t = await time(base, path);
    console.log(`${name.padEnd(48)} ${t.cold.toFixed(1).padStart(9)} ${t.median.toFixed(1).padStart(10)} ${t.worst.toFixed(1).padStart(9)} ${(t.bytes / 1024).toFixed(0).padStart(7)}`);
  }
  await ui.close();
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
