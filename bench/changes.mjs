// Change-tracking storage benchmark, end to end: a 500-page site on 127.0.0.1 scraped with the
// changeTracking format (git-diff mode) by the built app 30 times without changes. Prints the
// database size after the first run and after all of them, and the pages per second of a
// tracked re-run. Prints; asserts nothing.
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { dbSize } from "./db-size.mjs";
import { join } from "node:path";
import { runPipelineFile } from "../dist/app/index.js";

const PAGES = 500;
const RUNS = Number(process.env.BENCH_RUNS ?? 30);

function html(i) {
  const paragraphs = Array.from({ length: 12 }, (_, p) => `<p>Paragraph ${p} of page ${i}: ${"lorem ipsum dolor sit amet ".repeat(8 + ((i + p) % 5))}</p>`).join("");
  const links = Array.from({ length: 20 }, (_, k) => `<li><a href="/page/${(i + k) % PAGES}">Page ${(i + k) % PAGES}</a></li>`).join("");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page ${i}</title><meta name="description" content="About page ${i}"></head><body><nav><ul>${links}</ul></nav><main><h1>Page ${i}</h1>${paragraphs}</main><footer>© site</footer></body></html>`;
}


export async function run() {
  const bodies = Array.from({ length: PAGES }, (_, i) => html(i));
  const server = createServer((req, res) => {
    const i = Number(/^\/page\/(\d+)$/.exec(req.url ?? "")?.[1] ?? -1);
    if (!(i >= 0 && i < PAGES)) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(bodies[i]);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${server.address().port}`;
  const dir = mkdtempSync(join(tmpdir(), "scrapeline-changes-bench-"));
  const file = join(dir, "site.yaml");
  const db = join(dir, "site.db");
  const urls = Array.from({ length: PAGES }, (_, i) => `      - ${base}/page/${i}`).join("\n");
  writeFileSync(file, `version: 1\nname: site\nconcurrency: 16\nperHostConcurrency: 16\nsteps:\n  - id: pages\n    scrape:\n      formats: [markdown, { type: changeTracking, modes: [git-diff] }]\n      urls:\n${urls}\n`);
  const once = async () => {
    const start = process.hrtime.bigint();
    const result = await runPipelineFile(file, { db, allowPrivateNetwork: true });
    if (!result.ok || result.status !== "succeeded") throw new Error(`run failed: ${JSON.stringify(result.ok ? result.status : result.diagnostics)}`);
    return Number(process.hrtime.bigint() - start) / 1e9;
  };
  try {
    await once();
    const checkpoint = async () => {
      // A run leaves its writes in the WAL; fold them in so file sizes compare.
      const { SqliteStore } = await import("../dist/store/index.js");
      const store = new SqliteStore(db);
      store.db.pragma("wal_checkpoint(TRUNCATE)");
      store.close();
    };
    await checkpoint();
    const afterFirst = dbSize(db);
    const times = [];
    for (let r = 1; r < RUNS; r++) times.push(await once());
    await checkpoint();
    const afterAll = dbSize(db);
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)];
    console.log(`changes: ${PAGES} pages tracked in git-diff mode, ${RUNS} runs of an unchanged site`);
    console.log(`  tracked re-run (median)        ${(PAGES / median).toFixed(0)} pages/s (${median.toFixed(2)} s per run)`);
    console.log(`  database after the first run   ${(afterFirst / 1e6).toFixed(3)} MB`);
    console.log(`  after ${RUNS} runs                   ${(afterAll / 1e6).toFixed(3)} MB  (+${(((afterAll - afterFirst) / afterFirst) * 100).toFixed(1)}% beyond the first run)`);
  } finally {
    server.close();
  }
}
