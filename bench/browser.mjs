// Browser benchmark, end to end: a 50-page site on 127.0.0.1 scraped by the built app with plain
// HTTP, then with `engine.browser: always` (every page in Chromium, two at a time), then with
// `waitFor: 1` (the browser because a page needs it). Prints pages per second and the peak
// memory of this process plus its descendants (Chromium), sampled from /proc: the sum of RSS
// (counts shared pages once per process, so it overstates) and of PSS (shares them out). Asserts nothing.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runPipelineFile } from "../dist/app/index.js";

const PAGES = Number(process.env.BENCH_PAGES ?? 50);

function html(i) {
  const paragraphs = Array.from({ length: 12 }, (_, p) => `<p>Paragraph ${p} of page ${i}: ${"lorem ipsum dolor sit amet ".repeat(8 + ((i + p) % 5))}</p>`).join("");
  const links = Array.from({ length: 20 }, (_, k) => `<li><a href="/page/${(i + k) % PAGES}">Page ${(i + k) % PAGES}</a></li>`).join("");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page ${i}</title><link rel="stylesheet" href="/style.css"></head><body><nav><ul>${links}</ul></nav><main><h1>Page ${i}</h1>${paragraphs}</main><footer>© site</footer><script>document.body.dataset.ready = "1";</script></body></html>`;
}

/** Resident memory (bytes) of `root` and all its descendants, from /proc: summed RSS and PSS. */
function treeMemory(root) {
  const parent = new Map();
  const rss = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      parent.set(Number(entry), Number(fields[1]));
      rss.set(Number(entry), Number(fields[21]) * 4096);
    } catch {
      // gone meanwhile
    }
  }
  let total = 0;
  let pss = 0;
  const queue = [root];
  while (queue.length) {
    const pid = queue.shift();
    total += rss.get(pid) ?? 0;
    try {
      pss += Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"))?.[1] ?? 0) * 1024;
    } catch {
      // gone meanwhile
    }
    for (const [child, ppid] of parent) if (ppid === pid) queue.push(child);
  }
  return { rss: total, pss };
}

export async function run() {
  const bodies = Array.from({ length: PAGES }, (_, i) => html(i));
  const server = createServer((req, res) => {
    if (req.url === "/style.css") return void res.writeHead(200, { "content-type": "text/css" }).end("main { font-family: serif; }");
    const i = Number(/^\/page\/(\d+)$/.exec(req.url ?? "")?.[1] ?? -1);
    if (!(i >= 0 && i < PAGES)) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(bodies[i]);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${server.address().port}`;
  const dir = mkdtempSync(join(tmpdir(), "scrapeline-browser-bench-"));
  const urls = Array.from({ length: PAGES }, (_, i) => `      - ${base}/page/${i}`).join("\n");
  const variants = [
    { name: "plain HTTP", engine: "local", extra: "" },
    { name: "browser: always", engine: "{ kind: local, browser: always }", extra: "" },
    { name: "waitFor: 1 (auto)", engine: "local", extra: "      waitFor: 1\n" },
  ];
  console.log(`browser: ${PAGES} pages on 127.0.0.1, concurrency 8; the browser opens 2 pages at a time`);
  try {
    for (const [n, variant] of variants.entries()) {
      const file = join(dir, `v${n}.yaml`);
      writeFileSync(file, `version: 1\nname: v${n}\nengine: ${variant.engine}\nconcurrency: 8\nperHostConcurrency: 8\nsteps:\n  - id: pages\n    scrape:\n      formats: [markdown, links]\n      maxAge: 0\n${variant.extra}      urls:\n${urls}\n`);
      const peak = treeMemory(process.pid);
      const sampler = setInterval(() => {
        const now = treeMemory(process.pid);
        peak.rss = Math.max(peak.rss, now.rss);
        peak.pss = Math.max(peak.pss, now.pss);
      }, 100);
      const start = process.hrtime.bigint();
      const result = await runPipelineFile(file, { db: join(dir, `v${n}.db`), allowPrivateNetwork: true });
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      clearInterval(sampler);
      if (!result.ok || result.status !== "succeeded") throw new Error(`run failed: ${JSON.stringify(result.ok ? result.status : result.diagnostics)}`);
      console.log(`  ${variant.name.padEnd(20)} ${(PAGES / seconds).toFixed(1).padStart(7)} pages/s (${seconds.toFixed(2)} s, launch included)   peak RSS ${(peak.rss / 2 ** 20).toFixed(0)} MiB, PSS ${(peak.pss / 2 ** 20).toFixed(0)} MiB`);
    }
  } finally {
    server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
