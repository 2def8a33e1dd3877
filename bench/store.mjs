// Store benchmark: documents written per second (one transaction per page, as a run writes them),
// and how much 30 runs of an unchanged 500-page site grow the database beyond the first run.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dbSize } from "./db-size.mjs";
import { join } from "node:path";
import { SqliteStore } from "../dist/store/index.js";

const PAGES = 500;
const RUNS = 30;

function page(i) {
  const paragraphs = Array.from({ length: 12 }, (_, p) => `Paragraph ${p} of page ${i}: ${"lorem ipsum dolor sit amet ".repeat(8 + ((i + p) % 5))}`);
  const markdown = `# Page ${i}\n\n${paragraphs.join("\n\n")}\n`;
  return {
    markdown,
    links: Array.from({ length: 20 }, (_, k) => `https://site.example/page/${(i + k) % PAGES}`),
    metadata: { sourceURL: `https://site.example/page/${i}`, url: `https://site.example/page/${i}`, statusCode: 200, title: `Page ${i}`, description: `About page ${i}`, language: "en", contentType: "text/html; charset=utf-8", creditsUsed: 1 },
  };
}


function oneRun(store, docs) {
  const run = store.createRun({ pipelineName: "site", pipelineFile: "site.yaml", pipelineHash: "h", planJson: "{}", engine: "local" });
  store.startStep(run.id, "crawl", "crawl");
  const start = process.hrtime.bigint();
  for (const [i, document] of docs.entries()) store.saveDocument({ runId: run.id, stepId: "crawl", url: `https://site.example/page/${i}`, fetchedAt: new Date().toISOString(), creditsUsed: 1, document });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  store.finishStep(run.id, "crawl", "succeeded");
  store.finishRun(run.id, "succeeded");
  return seconds;
}

export function run() {
  const dir = mkdtempSync(join(tmpdir(), "scrapeline-store-bench-"));
  const path = join(dir, "bench.db");
  const store = new SqliteStore(path);
  const docs = Array.from({ length: PAGES }, (_, i) => page(i));
  const rawBytes = docs.reduce((n, d) => n + Buffer.byteLength(JSON.stringify(d)), 0);
  const firstSeconds = oneRun(store, docs);
  store.db.pragma("wal_checkpoint(TRUNCATE)");
  const afterFirst = dbSize(path);
  const times = [];
  for (let r = 1; r < RUNS; r++) times.push(oneRun(store, docs));
  store.db.pragma("wal_checkpoint(TRUNCATE)");
  const afterAll = dbSize(path);
  store.close();
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  console.log(`store: ${PAGES} pages (${(rawBytes / 1e6).toFixed(2)} MB of Document JSON), ${RUNS} runs`);
  console.log(`  first run (new content)        ${(PAGES / firstSeconds).toFixed(0)} documents/s`);
  console.log(`  unchanged re-run (median)      ${(PAGES / median).toFixed(0)} documents/s`);
  console.log(`  database after the first run   ${(afterFirst / 1e6).toFixed(2)} MB`);
  console.log(`  after ${RUNS} runs                   ${(afterAll / 1e6).toFixed(2)} MB  (+${(((afterAll - afterFirst) / afterFirst) * 100).toFixed(1)}% beyond the first run)`);
}
