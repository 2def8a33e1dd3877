// Map benchmark: the 2,000-page site of bench/crawl.mjs (no sitemap, so every URL is found by
// walking links) mapped by (a) scrapeline's local engine (`map`, default settings: links only,
// WALK_CONCURRENCY pages at once, limit 5000) and (b) crawlee's CheerioCrawler doing a link-only
// walk (same-domain links, nothing converted, same concurrency). Each runs in its own child
// process; rounds alternate who goes first; figures are medians. Prints URLs found, seconds,
// requests and peak RSS; asserts nothing.
// Build first: it measures dist/ (`npm run build`).
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { peakRssMb, startSite, warmUp } from "./crawl.mjs";

const PAGES = Number(process.env.BENCH_PAGES ?? 2000);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const SELF = fileURLToPath(import.meta.url);

async function mapOurs(base) {
  const { LocalEngine } = await import("../dist/engines/local/index.js");
  const engine = new LocalEngine({ allowPrivateNetwork: true });
  const start = process.hrtime.bigint();
  const result = await engine.map({ url: `${base}/`, sitemap: "include", includeSubdomains: true, ignoreQueryParameters: true, limit: 5000 });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  await engine.close();
  return { urls: result.links.length, seconds, ...(result.warning ? { warning: result.warning } : {}) };
}

async function walkCrawlee(base, concurrency) {
  const { CheerioCrawler, Configuration, log, LogLevel } = await import("@crawlee/cheerio");
  log.setLevel(LogLevel.OFF);
  const config = new Configuration({ persistStorage: false, purgeOnStart: true });
  const urls = new Set();
  const crawler = new CheerioCrawler(
    {
      minConcurrency: concurrency,
      maxConcurrency: concurrency,
      maxRequestRetries: 2,
      async requestHandler({ request, enqueueLinks }) {
        urls.add(request.loadedUrl ?? request.url);
        await enqueueLinks({ strategy: "same-domain" });
      },
    },
    config,
  );
  const start = process.hrtime.bigint();
  await crawler.run([`${base}/`]);
  return { urls: urls.size, seconds: Number(process.hrtime.bigint() - start) / 1e9 };
}

async function child(which, base) {
  let result;
  if (which === "ours") result = await mapOurs(base);
  else {
    const { WALK_CONCURRENCY } = await import("../dist/engines/local/crawl/map-walk.js");
    result = await walkCrawlee(base, WALK_CONCURRENCY);
  }
  process.stdout.write(`${JSON.stringify({ peakRssMb: peakRssMb(), ...result })}\n`);
}

function runChild(which, base) {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [SELF, "--child", which, base], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    proc.stdout.on("data", (c) => (out += c));
    proc.on("error", reject);
    proc.on("exit", (code) => {
      if (code !== 0) return reject(new Error(`${which} exited with ${code}`));
      try {
        resolve(JSON.parse(out.trim().split("\n").pop()));
      } catch {
        reject(new Error(`${which} printed no result: ${out}`));
      }
    });
  });
}

const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const fmt = (r) => `${String(r.urls).padStart(5)} URLs in ${r.seconds.toFixed(2)} s, ${r.requests} requests, peak RSS ${r.peakRssMb.toFixed(0)} MB${r.warning ? ` (warning: ${r.warning})` : ""}`;

export async function run() {
  const site = await startSite(PAGES);
  await warmUp(site, PAGES);
  const results = { ours: [], crawlee: [] };
  let peer = true;
  try {
    await import("@crawlee/cheerio");
  } catch {
    peer = false;
  }
  try {
    console.log(`map: ${PAGES} pages on 127.0.0.1, no sitemap, ${ROUNDS} round(s), each in its own process${peer ? "" : " (crawlee not installed: ours alone)"}`);
    for (let round = 0; round < ROUNDS; round++) {
      const order = !peer ? ["ours"] : round % 2 === 0 ? ["ours", "crawlee"] : ["crawlee", "ours"];
      for (const which of order) {
        const before = site.requests;
        const r = await runChild(which, site.url);
        r.requests = site.requests - before;
        results[which].push(r);
        console.log(`  round ${round + 1} ${which.padEnd(8)} ${fmt(r)}`);
      }
    }
  } finally {
    await site.close();
  }
  const ours = results.ours;
  console.log(`  scrapeline map: ${median(ours.map((r) => r.urls))} URLs in ${median(ours.map((r) => r.seconds)).toFixed(2)} s (median), peak RSS ${median(ours.map((r) => r.peakRssMb)).toFixed(0)} MB`);
  if (peer) {
    const theirs = results.crawlee;
    console.log(`  crawlee walk:   ${median(theirs.map((r) => r.urls))} URLs in ${median(theirs.map((r) => r.seconds)).toFixed(2)} s (median), peak RSS ${median(theirs.map((r) => r.peakRssMb)).toFixed(0)} MB`);
    console.log(`  ours/crawlee: ${(median(theirs.map((r) => r.seconds)) / median(ours.map((r) => r.seconds))).toFixed(1)}× the speed, by median`);
  }
}

if (process.argv[2] === "--child") await child(process.argv[3], process.argv[4]);
else if (process.argv[1] && SELF === process.argv[1]) await run();
