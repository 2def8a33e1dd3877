// Crawl benchmark against the crawlers people pick, on sites served on 127.0.0.1 by this process:
// bench/crawl.mjs's 2,000 pages of ~20 KB (ours and crawlee) and bench/site-30k.mjs's realistic
// ~30 KB pages at 1k and 5k pages (20k with BENCH_20K=1). Four crawlers, each a child process of
// this one, interleaved round by round (the order rotates), at the same concurrency:
//   ours     the built CLI's `scrapeline run` of a crawl step: markdown, every page stored in SQLite
//   crawlee  CheerioCrawler + turndown with the GFM plugin, every page pushed to a crawlee dataset on disk
//   scrapy   scrapy + html2text writing JSONL (skipped, saying so, without Debian's python3-scrapy
//            and python3-html2text)
//   floor    a GET of every page (the URL list known in advance) and an htmlparser2 parse, nothing more
// Each child runs under a small python3 wrapper that times it from start to exit (pages/s count the
// start-up too) and reads getrusage(RUSAGE_CHILDREN) once it has exited: CPU is user + sys of the
// whole process tree, peak RSS the largest process's. Then
// one verdict line per goal. Prints; asserts nothing. Build first (`npm run build`).
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startSite } from "./crawl.mjs";
import { startRealisticSite } from "./site-30k.mjs";

const SELF = fileURLToPath(import.meta.url);
const SCRAPY = fileURLToPath(new URL("./scrapy-peer.py", import.meta.url));
const CLI = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const PEERS = (process.env.BENCH_PEERS ?? "ours,crawlee,scrapy,floor").split(",");

// ---------------------------------------------------------------- the crawlers (child processes)

/** The pipeline scrapeline runs: the CLI's `run` (what a user types), markdown, every page stored in SQLite. */
function oursArgv(base, limit, dir) {
  const file = join(dir, "crawl.yaml");
  writeFileSync(file, `version: 1\nname: crawlbench\nconcurrency: ${CONCURRENCY}\nperHostConcurrency: ${CONCURRENCY}\nsteps:\n  - id: site\n    crawl:\n      url: ${base}/\n      limit: ${limit}\n      sitemap: skip\n      crawlEntireDomain: true\n      scrapeOptions: { formats: [markdown] }\n`);
  return [process.execPath, CLI, "run", file, "--db", join(dir, "crawl.db"), "--allow-private-network", "--json"];
}

async function crawlCrawlee(base, limit, dir) {
  process.env.CRAWLEE_STORAGE_DIR = dir;
  const { CheerioCrawler, Configuration, log, LogLevel } = await import("@crawlee/cheerio");
  const { default: TurndownService } = await import("turndown");
  const { gfm } = await import("@joplin/turndown-plugin-gfm");
  const turndown = new TurndownService();
  turndown.use(gfm);
  log.setLevel(LogLevel.OFF);
  let pages = 0;
  let markdownBytes = 0;
  const crawler = new CheerioCrawler(
    {
      minConcurrency: CONCURRENCY,
      maxConcurrency: CONCURRENCY,
      maxRequestRetries: 2,
      async requestHandler({ request, body, enqueueLinks, pushData }) {
        const markdown = turndown.turndown(typeof body === "string" ? body : body.toString("utf8"));
        markdownBytes += markdown.length;
        pages++;
        await pushData({ url: request.loadedUrl ?? request.url, markdown });
        await enqueueLinks({ strategy: "same-domain" });
      },
    },
    new Configuration({ persistStorage: true, purgeOnStart: true }),
  );
  const start = process.hrtime.bigint();
  await crawler.run([`${base}/`]);
  return { pages, markdownBytes, seconds: Number(process.hrtime.bigint() - start) / 1e9 };
}

async function crawlFloor(base, _limit, dir) {
  const { Pool } = await import("undici");
  const { Parser } = await import("htmlparser2");
  const paths = readFileSync(join(dir, "paths.txt"), "utf8").split("\n");
  const pool = new Pool(base, { connections: CONCURRENCY });
  let next = 0;
  let pages = 0;
  let links = 0;
  const start = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < paths.length) {
        const { body } = await pool.request({ path: paths[next++], method: "GET" });
        const parser = new Parser({ onopentag: (name, attrs) => void (name === "a" && attrs.href && links++) });
        parser.end(await body.text());
        pages++;
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  await pool.close();
  return { pages, links, markdownBytes: 0, seconds };
}

const CRAWLERS = { crawlee: crawlCrawlee, floor: crawlFloor };

// ---------------------------------------------------------------- running them

/** The python3 that has scrapy and html2text (Debian's packages land in /usr/bin/python3), or undefined. */
function scrapyPython() {
  for (const python of ["/usr/bin/python3", "python3"]) {
    const probe = spawnSync(python, ["-c", "import scrapy, html2text"], { stdio: "ignore" });
    if (probe.status === 0) return python;
  }
  return undefined;
}

/** A python3 for the wrapper that measures the process tree. */
function anyPython() {
  for (const python of ["/usr/bin/python3", "python3"]) if (spawnSync(python, ["-c", "0"], { stdio: "ignore" }).status === 0) return python;
  throw new Error("bench/crawl-peers.mjs needs python3 to measure each crawler's process tree (getrusage of its children)");
}

// Runs argv[1:], then prints its wall time (s), the CPU (s) and the largest peak RSS (KiB) of the whole tree it waited for.
const TREE = "import json,resource,subprocess,sys,time\nstart=time.monotonic()\ncode=subprocess.call(sys.argv[1:])\nwall=time.monotonic()-start\nr=resource.getrusage(resource.RUSAGE_CHILDREN)\nprint(json.dumps({'code':code,'wall':wall,'cpu':r.ru_utime+r.ru_stime,'maxRssKb':r.ru_maxrss}))";

function runTree(python, argv, env) {
  return new Promise((resolve, reject) => {
    const proc = spawn(python, ["-c", TREE, ...argv], { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, ...env } });
    let out = "";
    proc.stdout.on("data", (c) => (out += c));
    proc.on("error", reject);
    proc.on("exit", () => {
      const last = out.trimEnd().lastIndexOf("\n");
      const tree = JSON.parse(out.slice(last + 1));
      if (tree.code !== 0) return reject(new Error(`${argv.join(" ")} exited with ${tree.code}: ${out}`));
      const own = out.slice(0, Math.max(0, last)).trim();
      resolve({ tree, own: own.startsWith("{") ? JSON.parse(own.slice(own.lastIndexOf("\n{") + 1)) : {} });
    });
  });
}

async function countOurs(dir, runId) {
  const { SqliteStore } = await import("../dist/store/index.js");
  const store = new SqliteStore(join(dir, "crawl.db"));
  let pages = 0;
  let markdownBytes = 0;
  for (const d of store.documents(runId, "site")) {
    pages++;
    markdownBytes += d.document.markdown?.length ?? 0;
  }
  store.close();
  return { pages, markdownBytes };
}

function countJsonl(file) {
  let pages = 0;
  let markdownBytes = 0;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line) continue;
    pages++;
    markdownBytes += JSON.parse(line).markdown.length;
  }
  return { pages, markdownBytes };
}

async function runPeer(peer, site, limit, pythons) {
  const dir = mkdtempSync(join(tmpdir(), `scrapeline-peers-${peer}-`));
  try {
    const before = site.requests;
    let counted;
    let own;
    let tree;
    if (peer === "scrapy") {
      const out = join(dir, "items.jsonl");
      ({ own, tree } = await runTree(pythons.scrapy, [pythons.scrapy, SCRAPY, site.url, String(CONCURRENCY), out]));
      counted = countJsonl(out);
    } else if (peer === "ours") {
      ({ own, tree } = await runTree(pythons.tree, oursArgv(site.url, limit, dir)));
      counted = await countOurs(dir, own.runId ?? 1);
    } else {
      if (peer === "floor") writeFileSync(join(dir, "paths.txt"), site.paths.join("\n"));
      ({ own, tree } = await runTree(pythons.tree, [process.execPath, SELF, "--child", peer, site.url, String(limit), dir]));
      counted = { pages: own.pages, markdownBytes: own.markdownBytes };
    }
    return { peer, ...counted, seconds: tree.wall, cpuSeconds: tree.cpu, peakRssMb: tree.maxRssKb / 1024, requests: site.requests - before };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const fmt = (r) => `${String(r.pages).padStart(5)} pages in ${r.seconds.toFixed(2).padStart(6)} s = ${(r.pages / r.seconds).toFixed(0).padStart(5)} pages/s, CPU ${((1000 * r.cpuSeconds) / r.pages).toFixed(2).padStart(6)} ms/page, peak RSS ${r.peakRssMb.toFixed(0).padStart(4)} MB, markdown ${(r.markdownBytes / 1e6).toFixed(1)} MB, ${r.requests} requests`;

/** Requests every page once, so the site's server is as warm for the first crawler as for the others. */
async function warmUp(site) {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < site.paths.length) await (await fetch(`${site.url}${site.paths[next++]}`)).arrayBuffer();
    }),
  );
  site.resetRequests();
}

/** Crawls one site with every peer, `rounds` times, interleaved; returns the medians per peer. */
async function benchSite(label, site, limit, rounds, peers, pythons) {
  await warmUp(site);
  console.log(`${label}: ${limit} pages, mean ${(site.meanBytes() / 1024).toFixed(1)} KB, concurrency ${CONCURRENCY}, ${rounds} round(s)`);
  const results = Object.fromEntries(peers.map((p) => [p, []]));
  for (let round = 0; round < rounds; round++) {
    const order = peers.map((_, k) => peers[(k + round) % peers.length]);
    for (const peer of order) {
      const r = await runPeer(peer, site, limit, pythons);
      results[peer].push(r);
      console.log(`  round ${round + 1} ${peer.padEnd(8)} ${fmt(r)}`);
    }
  }
  const summary = {};
  for (const peer of peers) {
    const list = results[peer];
    summary[peer] = { rate: median(list.map((r) => r.pages / r.seconds)), cpuMs: median(list.map((r) => (1000 * r.cpuSeconds) / r.pages)), rssMb: median(list.map((r) => r.peakRssMb)) };
    const s = summary[peer];
    console.log(`  median   ${peer.padEnd(8)} ${s.rate.toFixed(0).padStart(5)} pages/s, CPU ${s.cpuMs.toFixed(2)} ms/page, peak RSS ${s.rssMb.toFixed(0)} MB`);
  }
  return summary;
}

export async function run() {
  const pythons = { tree: anyPython(), scrapy: scrapyPython() };
  let peers = PEERS;
  if (peers.includes("scrapy") && !pythons.scrapy) {
    console.log("scrapy peer skipped: no python3 with scrapy and html2text (Debian: apt-get install python3-scrapy python3-html2text)");
    peers = peers.filter((p) => p !== "scrapy");
  }
  const sizes = process.env.BENCH_SIZES ? process.env.BENCH_SIZES.split(",").map(Number) : [1000, 5000, ...(process.env.BENCH_20K ? [20_000] : [])];
  const figures = {};
  if (process.env.BENCH_OLD_SITE !== "0") {
    const old = await startSite(2000);
    try {
      // This site is for the goal against crawlee; BENCH_OLD_PEERS adds the others.
      const oldPeers = (process.env.BENCH_OLD_PEERS ?? "ours,crawlee").split(",").filter((p) => peers.includes(p));
      figures.old = await benchSite("crawl.mjs site", old, 2000, ROUNDS, oldPeers, pythons);
    } finally {
      await old.close();
    }
  }
  for (const n of sizes) {
    const site = await startRealisticSite(n);
    try {
      figures[n] = await benchSite("30 KB site", site, n, n <= 1000 ? ROUNDS : 1, peers, pythons);
    } finally {
      await site.close();
    }
  }
  const verdict = (ok, text) => console.log(`${ok === undefined ? "n/a " : ok ? "PASS" : "FAIL"} ${text}`);
  const ratio = (f, a, b) => (f?.[a] && f?.[b] ? f[a].rate / f[b].rate : undefined);
  const speed = (f, what) => {
    const x = ratio(f, "ours", "crawlee");
    verdict(x === undefined ? undefined : x >= 10, `pages/s ≥ 10× crawlee+turndown on ${what}: ${x === undefined ? "not measured" : `${x.toFixed(1)}×`}`);
  };
  speed(figures.old, "the 2,000-page site");
  speed(figures[1000], "the 30 KB site (1k pages)");
  const o1 = figures[1000]?.ours;
  const s1 = figures[1000]?.scrapy;
  verdict(o1 && s1 ? o1.rssMb <= s1.rssMb : undefined, `peak RSS ≤ scrapy's at 1k pages: ${o1 && s1 ? `${o1.rssMb.toFixed(0)} vs ${s1.rssMb.toFixed(0)} MB` : "not measured"}`);
  const o20 = figures[20_000]?.ours;
  verdict(o20 ? o20.rssMb < 250 : undefined, `peak RSS < 250 MB at 20k pages: ${o20 ? `${o20.rssMb.toFixed(0)} MB` : "not measured (BENCH_20K=1)"}`);
  const f1 = figures[1000]?.floor;
  verdict(o1 && f1 ? o1.cpuMs <= 1.5 * f1.cpuMs : undefined, `CPU/page within 1.5× the GET+htmlparser2 floor (1k pages): ${o1 && f1 ? `${o1.cpuMs.toFixed(2)} vs ${f1.cpuMs.toFixed(2)} ms = ${(o1.cpuMs / f1.cpuMs).toFixed(2)}×` : "not measured"}`);
}

const main = process.argv[1] !== undefined && SELF === process.argv[1];
if (main && process.argv[2] === "--child") {
  const [, , , peer, base, limit, dir] = process.argv;
  const result = await CRAWLERS[peer](base, Number(limit), dir);
  process.stdout.write(`\n${JSON.stringify(result)}\n`);
} else if (main && process.argv[2] === "--serve") {
  // For profiling by hand: `node bench/crawl-peers.mjs --serve 1000`, then `node --cpu-prof
  // dist/cli/main.js run crawl.yaml --allow-private-network` of a crawl step of that URL.
  const site = await startRealisticSite(Number(process.argv[3] ?? 1000));
  console.log(site.url);
} else if (main) await run();
