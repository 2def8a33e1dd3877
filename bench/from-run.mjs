// Keeping fetched pages for run --from-run, measured: a site on 127.0.0.1 scraped 30 times
// unchanged by the built app with maxAge 0 (every run fetches every page, the most a run keeps),
// then the database compared with the same database with the kept pages taken out. Two sites:
// generated pages (markdown is most of the HTML) and the real pages of the shared corpus
// (main-content, when present; scripts, styles and markup are most of the HTML). Then the time of
// a run made from the stored pages against a live run. Prints; asserts nothing.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runPipelineFile } from "../dist/app/index.js";
import { LocalEngine } from "../dist/engines/local/index.js";
import { sizeWithAndWithout } from "./kept-pages-size.mjs";

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const GENERATED = 200;

function generated(i) {
  const paragraphs = Array.from({ length: 12 }, (_, p) => `<p>Paragraph ${p} of page ${i}: ${"lorem ipsum dolor sit amet ".repeat(8 + ((i + p) % 5))}</p>`).join("");
  const links = Array.from({ length: 20 }, (_, k) => `<li><a href="/page/${(i + k) % GENERATED}">Page ${(i + k) % GENERATED}</a></li>`).join("");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page ${i}</title><meta name="description" content="About page ${i}"></head><body><nav><ul>${links}</ul></nav><main><h1>Page ${i}</h1>${paragraphs}</main><footer>© site</footer></body></html>`;
}

function corpusPages() {
  // As bench/corpus.mjs finds it, but optional here.
  const dir = join(process.env.SCRAPELINE_CORPUS ?? fileURLToPath(new URL("../../shared/corpus/", import.meta.url)), "main-content");
  if (!existsSync(dir)) return undefined;
  return readdirSync(dir)
    .filter((name) => existsSync(join(dir, name, "source.html")))
    .sort()
    .map((name) => readFileSync(join(dir, name, "source.html")));
}

async function measure(label, bodies) {
  const server = createServer((req, res) => {
    const i = Number(/^\/page\/(\d+)$/.exec(req.url ?? "")?.[1] ?? -1);
    if (!(i >= 0 && i < bodies.length)) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(bodies[i]);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${server.address().port}`;
  const dir = mkdtempSync(join(tmpdir(), "scrapeline-from-run-bench-"));
  const file = join(dir, "site.yaml");
  const db = join(dir, "site.db");
  const urls = bodies.map((_, i) => `      - ${base}/page/${i}`).join("\n");
  writeFileSync(file, `version: 1\nname: site\nconcurrency: 8\nperHostConcurrency: 8\ndefaults:\n  scrapeOptions: { maxAge: 0 }\nsteps:\n  - id: pages\n    scrape:\n      formats: [markdown]\n      urls:\n${urls}\n`);
  const once = async (extra = {}) => {
    const start = process.hrtime.bigint();
    const result = await runPipelineFile(file, { db, allowPrivateNetwork: true, ...extra });
    if (!result.ok || result.status !== "succeeded") throw new Error(`run failed: ${JSON.stringify(result.ok ? result.status : result.diagnostics)}`);
    return Number(process.hrtime.bigint() - start) / 1e9;
  };
  try {
    const live = [await once()];
    const first = sizeWithAndWithout(db, join(dir, "first-without.db"));
    for (let r = 1; r < RUNS; r++) live.push(await once());
    const fromRun = [];
    // Runs made from stored pages are measured apart (in a copy): they would add runs to the figure.
    const { withPages, withoutPages, keptBlobs } = sizeWithAndWithout(db, join(dir, "without.db"));
    // The cost of keeping pages on a live run: runs alternate with runs on an engine given to the
    // app (which keeps nothing, as a test's engine) into a database of their own.
    const keeping = [];
    const notKeeping = [];
    const plain = new LocalEngine({ allowPrivateNetwork: true });
    for (let r = 0; r < 5; r++) {
      fromRun.push(await once({ fromRun: "latest" }));
      keeping.push(await once());
      notKeeping.push(await once({ engine: plain, db: join(dir, "plain.db") }));
    }
    await plain.close();
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const htmlBytes = bodies.reduce((n, b) => n + Buffer.byteLength(b), 0);
    console.log(`from-run: ${label}: ${bodies.length} pages (${(htmlBytes / 1e6).toFixed(2)} MB of HTML), ${RUNS} unchanged runs, maxAge 0`);
    const pct = (a, b) => `${a >= b ? "+" : ""}${(((a - b) / b) * 100).toFixed(1)}%`;
    console.log(`  after the first run             ${(first.withPages / 1e6).toFixed(3)} MB, ${(first.withoutPages / 1e6).toFixed(3)} MB without kept pages`);
    console.log(`  after ${RUNS} runs, kept pages       ${(withPages / 1e6).toFixed(3)} MB  (${pct(withPages, first.withPages)} beyond the first run)`);
    console.log(`  the same without them           ${(withoutPages / 1e6).toFixed(3)} MB  (${pct(withoutPages, first.withoutPages)} beyond the first run; kept pages ${pct(withPages, withoutPages)}, ${keptBlobs} blobs)`);
    console.log(`  live run (median)               ${median(keeping).toFixed(2)} s; ${median(notKeeping).toFixed(2)} s keeping no pages`);
    console.log(`  run --from-run latest (median)  ${median(fromRun).toFixed(2)} s`);
  } finally {
    server.close();
  }
}

export async function run() {
  await measure("generated pages", Array.from({ length: GENERATED }, (_, i) => generated(i)));
  const corpus = corpusPages();
  if (corpus) await measure("corpus main-content (real pages)", corpus);
  else console.log("from-run: corpus main-content not found ($SCRAPELINE_CORPUS); real pages skipped");
}
