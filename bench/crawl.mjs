// Crawl benchmark, end to end: a generated site of interlinked pages (~20 KB each: header, nav,
// article, aside, footer; 10–30 links per page) served on 127.0.0.1 by this process, crawled by
// (a) scrapeline's local crawl through the built app (markdown, stored in a temp SQLite database)
// and (b) crawlee's CheerioCrawler doing the same crawl (same-domain links, same limit, same
// concurrency) with the same markdown conversion (scrapeline's processHtml on the body). Each
// crawler runs in its own child process so its peak RSS is its own (taken when its crawl ends:
// ours before the pages are read back to count their markdown). Rounds alternate who goes first;
// figures are medians over the rounds. Then a larger crawl of ours alone, for peak RSS against
// the size of the site. Prints; asserts nothing.
// Build first: it measures dist/ (`npm run build`).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const PAGES = Number(process.env.BENCH_PAGES ?? 2000);
const LARGE = Number(process.env.BENCH_LARGE_PAGES ?? 10_000);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const SELF = fileURLToPath(import.meta.url);

// ---------------------------------------------------------------- the site

/** A small deterministic PRNG (mulberry32), so page i is the same on every request and every run. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = "the of crawl page data site link web index market price report update service customer product search result content server storage network engine market policy quarter growth analysis figure table section chapter review guide support account release version feature performance security privacy".split(" ");
const SECTIONS = ["news", "docs", "blog", "products", "support", "about", "careers", "press"];

export function sentence(rand, n) {
  const words = [];
  for (let i = 0; i < n; i++) words.push(WORDS[Math.floor(rand() * WORDS.length)]);
  words[0] = words[0][0].toUpperCase() + words[0].slice(1);
  return `${words.join(" ")}.`;
}

export const path = (i) => (i === 0 ? "/" : `/${SECTIONS[i % SECTIONS.length]}/page-${i}.html`);

/** Page i of a site of n pages: about 20 KB, 10–30 links; page i links i+1 so every page is reachable from /. */
function pageHtml(i, n) {
  const rand = prng(i * 7919 + n);
  const nav = SECTIONS.map((s, k) => `<li class="nav-item"><a class="nav-link" href="${path(k + 1)}">${s[0].toUpperCase()}${s.slice(1)}</a></li>`).join("");
  const targets = new Set([(i + 1) % n]);
  const count = 2 + Math.floor(rand() * 21); // 2–22 in the article, plus 8 in the nav
  while (targets.size < count) targets.add(Math.floor(rand() * n));
  const inline = [...targets];
  const paragraphs = [];
  let size = 0;
  for (let p = 0; size < 18_000; p++) {
    let text = sentence(rand, 12 + Math.floor(rand() * 20)) + " " + sentence(rand, 10 + Math.floor(rand() * 25));
    if (p < inline.length) text += ` See <a href="${path(inline[p])}">${sentence(rand, 3)}</a> for more.`;
    const block = p % 6 === 5 ? `<h2 id="s${p}">${sentence(rand, 5)}</h2><p>${text}</p>` : `<p>${text} <strong>${sentence(rand, 4)}</strong> ${sentence(rand, 15)}</p>`;
    paragraphs.push(block);
    size += block.length;
  }
  for (let p = paragraphs.length; p < inline.length; p++) paragraphs.push(`<p><a href="${path(inline[p])}">${sentence(rand, 4)}</a></p>`);
  const aside = `<aside class="sidebar"><h3>Related</h3><ul><li><span>${sentence(rand, 6)}</span></li><li><span>${sentence(rand, 6)}</span></li></ul></aside>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page ${i} — Example Site</title><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="description" content="${sentence(rand, 12)}"><link rel="stylesheet" href="/static/site.css"><script>window.dataLayer = window.dataLayer || []; function gtag(){dataLayer.push(arguments);}</script></head><body class="page page-${i}"><header class="site-header"><div class="container"><a class="logo" href="/">Example Site</a><nav class="main-nav" aria-label="Main"><ul class="nav">${nav}</ul></nav></div></header><div class="container layout"><main id="content"><article class="post"><header class="post-header"><h1>${sentence(rand, 6)}</h1><p class="byline">By <span class="author">Author ${i % 37}</span> · <time datetime="2026-01-${String((i % 28) + 1).padStart(2, "0")}">January ${(i % 28) + 1}, 2026</time></p></header><div class="post-body">${paragraphs.join("\n")}</div></article></main>${aside}</div><footer class="site-footer"><div class="container"><p>© 2026 Example Site. All rights reserved.</p><ul class="footer-links"><li><a href="${path(1)}">Contact</a></li></ul></div></footer><script src="/static/app.js" defer></script></body></html>`;
}

/** Serves a site of n pages on 127.0.0.1; robots.txt and sitemaps answer 404. */
export async function startSite(n) {
  // Every page is made before the first request, so the crawler that goes first does not pay for it.
  return servePages(new Map(Array.from({ length: n }, (_, i) => [path(i), Buffer.from(pageHtml(i, n))])));
}

/** Serves pages made beforehand (path → body) on 127.0.0.1, counting requests; any other path answers 404. */
export async function servePages(pages) {
  let requests = 0;
  const server = createServer((req, res) => {
    requests++;
    const body = pages.get((req.url ?? "/").split("?")[0]);
    if (body === undefined) return void res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": body.length }).end(body);
  });
  server.keepAliveTimeout = 30_000;
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    paths: [...pages.keys()],
    get requests() {
      return requests;
    },
    resetRequests: () => void (requests = 0),
    meanBytes: () => {
      let sum = 0;
      for (const b of pages.values()) sum += b.length;
      return pages.size ? sum / pages.size : 0;
    },
    close: () => new Promise((r) => server.close(r)),
  };
}

/** Requests every page once from this process, so the site's server is as warm for the first crawler as for the others. */
export async function warmUp(site, n) {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < n) await (await fetch(`${site.url}${path(next++)}`)).arrayBuffer();
    }),
  );
  site.resetRequests();
}

// ---------------------------------------------------------------- the crawlers (child processes)

export function peakRssMb() {
  // VmHWM is the peak resident set of this process; maxRSS (KiB) where /proc is missing.
  try {
    const status = readFileSync("/proc/self/status", "utf8");
    const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]);
    if (kb) return kb / 1024;
  } catch {}
  return process.resourceUsage().maxRSS / 1024;
}

/** CPU time of the whole process (every thread) since `from`, in seconds: steadier than wall time on a busy machine. */
function cpuSecondsSince(from) {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1e6;
}

async function crawlOurs(base, limit) {
  const { runPipelineFile } = await import("../dist/app/index.js");
  const dir = mkdtempSync(join(tmpdir(), "scrapeline-crawl-bench-"));
  const file = join(dir, "crawl.yaml");
  const db = join(dir, "crawl.db");
  writeFileSync(file, `version: 1\nname: crawlbench\nconcurrency: ${CONCURRENCY}\nperHostConcurrency: ${CONCURRENCY}\nsteps:\n  - id: site\n    crawl:\n      url: ${base}/\n      limit: ${limit}\n      sitemap: skip\n      crawlEntireDomain: true\n      scrapeOptions: { formats: [markdown] }\n`);
  const start = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  let stored = 0;
  let markdownBytes = 0;
  const result = await runPipelineFile(file, { db, allowPrivateNetwork: true, onEvent: (e) => void (e.type === "document-stored" && stored++) });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const cpuSeconds = cpuSecondsSince(cpu);
  // The crawl's peak, before the pages are read back below to count their markdown.
  const peak = peakRssMb();
  if (!result.ok || result.status !== "succeeded") throw new Error(`run failed: ${JSON.stringify(result.ok ? result.status : result.diagnostics)}`);
  const { SqliteStore } = await import("../dist/store/index.js");
  const store = new SqliteStore(db);
  for (const d of store.documents(result.runId, "site")) markdownBytes += d.document.markdown?.length ?? 0;
  store.close();
  rmSync(dir, { recursive: true, force: true });
  return { pages: stored, seconds, cpuSeconds, markdownBytes, peakRssMb: peak };
}

async function crawlCrawlee(base, limit) {
  const { CheerioCrawler, Configuration, log, LogLevel } = await import("@crawlee/cheerio");
  const { processHtml } = await import("../dist/engines/local/html/index.js");
  log.setLevel(process.env.BENCH_CRAWLEE_LOG ? LogLevel.INFO : LogLevel.OFF);
  const config = new Configuration({ persistStorage: false, purgeOnStart: true });
  let pages = 0;
  let markdownBytes = 0;
  const crawler = new CheerioCrawler(
    {
      minConcurrency: CONCURRENCY,
      maxConcurrency: CONCURRENCY,
      // The site has exactly `limit` pages, so the crawl is bounded without maxRequestsPerCrawl. With it,
      // crawlee's enqueueLinks budget shrinks to the few requests left, and addRequestsBatched then
      // sleeps 1 s between chunks of links it has already seen: ~16 pages/s. BENCH_CRAWLEE_LIMIT=1 sets it.
      ...(process.env.BENCH_CRAWLEE_LIMIT ? { maxRequestsPerCrawl: limit } : {}),
      maxRequestRetries: 2,
      async requestHandler({ request, body, enqueueLinks }) {
        const html = processHtml(typeof body === "string" ? body : body.toString("utf8"), {
          url: request.loadedUrl ?? request.url,
          onlyMainContent: true,
          removeBase64Images: true,
          blockAds: true,
          want: { markdown: true },
        });
        markdownBytes += html.markdown?.length ?? 0;
        pages++;
        await enqueueLinks({ strategy: "same-domain" });
      },
    },
    config,
  );
  const start = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  await crawler.run([`${base}/`]);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return { pages, seconds, cpuSeconds: cpuSecondsSince(cpu), markdownBytes };
}

async function child(which, base, limit) {
  const result = which === "ours" ? await crawlOurs(base, limit) : await crawlCrawlee(base, limit);
  process.stdout.write(`${JSON.stringify({ peakRssMb: peakRssMb(), ...result })}\n`);
}

function runChild(which, base, limit) {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [SELF, "--child", which, base, String(limit)], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    proc.stdout.on("data", (c) => (out += c));
    proc.on("error", reject);
    proc.on("exit", (code) => {
      if (code !== 0) return reject(new Error(`${which} crawler exited with ${code}`));
      if (process.env.BENCH_CRAWLEE_LOG) process.stderr.write(out);
      try {
        resolve(JSON.parse(out.trim().split("\n").pop()));
      } catch (error) {
        reject(new Error(`${which} crawler printed no result: ${out}`));
      }
    });
  });
}

// ---------------------------------------------------------------- the parent

const fmt = (r) => `${r.pages} pages in ${r.seconds.toFixed(2)} s = ${(r.pages / r.seconds).toFixed(0).padStart(4)} pages/s, CPU ${((1000 * r.cpuSeconds) / r.pages).toFixed(2)} ms/page, peak RSS ${r.peakRssMb.toFixed(0).padStart(3)} MB, markdown ${(r.markdownBytes / 1e6).toFixed(1)} MB`;

export async function run() {
  const site = await startSite(PAGES);
  await warmUp(site, PAGES);
  const results = { ours: [], crawlee: [] };
  try {
    console.log(`crawl: ${PAGES} pages on 127.0.0.1, concurrency ${CONCURRENCY}, ${ROUNDS} round(s), each crawler in its own process`);
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate who goes first, so a load spike on the machine does not always hit the same one.
      const order = round % 2 === 0 ? ["ours", "crawlee"] : ["crawlee", "ours"];
      for (const which of order) {
        const before = site.requests;
        const r = await runChild(which, site.url, PAGES);
        r.requests = site.requests - before;
        results[which].push(r);
        console.log(`  round ${round + 1} ${which.padEnd(8)} ${fmt(r)}, ${r.requests} requests`);
      }
    }
    console.log(`  site: mean page ${(site.meanBytes() / 1024).toFixed(1)} KB`);
  } finally {
    await site.close();
  }
  const best = (list, f) => list.map(f).sort((a, b) => b - a);
  const ours = results.ours;
  const theirs = results.crawlee;
  const median = (xs) => {
    const sorted = [...xs].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  };
  const rate = (r) => r.pages / r.seconds;
  const oursRate = median(ours.map(rate));
  const theirRate = median(theirs.map(rate));
  const oursRss = median(ours.map((r) => r.peakRssMb));
  const theirRss = median(theirs.map((r) => r.peakRssMb));
  console.log(`  scrapeline ${oursRate.toFixed(0)} pages/s (range ${best(ours, rate).at(-1).toFixed(0)}–${best(ours, rate)[0].toFixed(0)}), peak RSS ${oursRss.toFixed(0)} MB`);
  console.log(`  crawlee    ${theirRate.toFixed(0)} pages/s (range ${best(theirs, rate).at(-1).toFixed(0)}–${best(theirs, rate)[0].toFixed(0)}), peak RSS ${theirRss.toFixed(0)} MB`);
  console.log(`  ours/crawlee: ${(oursRate / theirRate).toFixed(1)}× the pages/s (target ≥ 5×), ${(oursRss / theirRss).toFixed(2)}× the peak RSS (target ≤ 0.5×), by median`);
  // Rounds pair the two crawlers at about the same load on the machine.
  const rounds = ours.map((r, i) => `${(rate(r) / rate(theirs[i])).toFixed(1)}× / ${(r.peakRssMb / theirs[i].peakRssMb).toFixed(2)}×`);
  console.log(`  round by round (pages/s / peak RSS): ${rounds.join(", ")}`);

  if (LARGE > 0) {
    const large = await startSite(LARGE);
    try {
      const r = await runChild("ours", large.url, LARGE);
      console.log(`  ${LARGE}-page crawl, scrapeline alone: ${fmt(r)} (target < 250 MB)`);
    } finally {
      await large.close();
    }
  }
}

// Only when run itself: bench/map.mjs imports the site from here.
const main = process.argv[1] !== undefined && SELF === process.argv[1];
if (main && process.argv[2] === "--serve") {
  // For profiling one crawler by hand: `node bench/crawl.mjs --serve 2000`, then
  // `node --cpu-prof bench/crawl.mjs --child ours URL 2000`.
  const site = await startSite(Number(process.argv[3] ?? PAGES));
  console.log(site.url);
} else if (main && process.argv[2] === "--child") await child(process.argv[3], process.argv[4], Number(process.argv[5]));
else if (main) await run();
