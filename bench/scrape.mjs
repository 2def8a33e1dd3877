// Benchmark: the local engine's HTML pipeline (main content + markdown + links + metadata) against
// three HTML → markdown converters, over the 65 pages of main-content/ in the corpus folder ($SCRAPELINE_CORPUS, default
// ../shared/corpus), in one run.
// Prints MB/s and pages/s (median of several interleaved passes after a warm-up), our speed ratio to
// each peer, and the main-content quality (token F1 against expected.html). Asserts nothing.
// Build first: it measures dist/ (`npm run build`).
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { corpusDir } from "./corpus.mjs";

const PASSES = Number(process.env.BENCH_PASSES ?? 7);
const WARMUP = Math.max(1, Number(process.env.BENCH_WARMUP ?? 1));
const MIN_PASS_MS = 1000;
const CORPUS = corpusDir("main-content");
const HTML_DIST = new URL("../dist/engines/local/html/", import.meta.url);
const PAGE_URL = "http://fakehost/test/page.html";

function loadCorpus() {
  return readdirSync(CORPUS).sort().map((name) => ({
    name,
    source: readFileSync(`${CORPUS}${name}/source.html`, "utf8"),
    expected: readFileSync(`${CORPUS}${name}/expected.html`, "utf8"),
  }));
}

async function converters() {
  const require = createRequire(import.meta.url);
  const { processHtml } = await import(new URL("index.js", HTML_DIST).href);
  const TurndownService = require("turndown");
  const { gfm } = require("@joplin/turndown-plugin-gfm");
  const { NodeHtmlMarkdown } = require("node-html-markdown");
  const { htmlToMarkdown } = await import("@mdream/js");
  const turndown = new TurndownService();
  turndown.use(gfm);
  const nhm = new NodeHtmlMarkdown();
  const options = { url: PAGE_URL, onlyMainContent: true, removeBase64Images: true, blockAds: false, want: { markdown: true, links: true } };
  return [
    { name: "scrapeline (main content + markdown + links + metadata)", short: "scrapeline", convert: (html) => processHtml(html, options) },
    { name: "turndown + turndown-plugin-gfm", short: "turndown", convert: (html) => turndown.turndown(html) },
    { name: "node-html-markdown", short: "node-html-markdown", convert: (html) => nhm.translate(html) },
    { name: "@mdream/js htmlToMarkdown", short: "mdream", convert: (html) => htmlToMarkdown(html) },
  ];
}

/**
 * Median time of one pass over the corpus for each converter. Passes are interleaved so load spikes
 * hit all converters alike; a fast converter repeats the corpus within a pass until the pass lasts
 * about MIN_PASS_MS, so one spike does not decide its figure.
 */
function measure(list, pages) {
  const reps = list.map((c) => {
    const start = process.hrtime.bigint();
    for (let i = 0; i < WARMUP; i++) for (const page of pages) c.convert(page.source);
    const perCorpus = Number(process.hrtime.bigint() - start) / 1e6 / Math.max(WARMUP, 1);
    return Math.max(1, Math.ceil(MIN_PASS_MS / perCorpus));
  });
  const samples = list.map(() => []);
  for (let pass = 0; pass < PASSES; pass++) {
    list.forEach((c, i) => {
      const start = process.hrtime.bigint();
      for (let r = 0; r < reps[i]; r++) for (const page of pages) c.convert(page.source);
      samples[i].push(Number(process.hrtime.bigint() - start) / 1e6 / reps[i]);
    });
  }
  return samples.map((times) => {
    times.sort((a, b) => a - b);
    return { median: times[Math.floor(times.length / 2)], min: times[0] };
  });
}

async function quality(pages) {
  const { processHtml, htmlText, tokenize, tokenF1 } = await import(new URL("index.js", HTML_DIST).href);
  const { parseHtml } = await import(new URL("parse.js", HTML_DIST).href);
  const { removeNonMainByList } = await import(new URL("baseline.js", HTML_DIST).href);
  const { serializeHtml } = await import(new URL("serialize.js", HTML_DIST).href);
  const { UrlResolver } = await import(new URL("urls.js", HTML_DIST).href);
  const base = { url: PAGE_URL, removeBase64Images: false, blockAds: false, want: { html: true } };
  const sums = { main: 0, list: 0, whole: 0 };
  const worst = [];
  for (const page of pages) {
    const reference = tokenize(htmlText(page.expected));
    const score = (html) => tokenF1(tokenize(htmlText(html)), reference);
    const main = score(processHtml(page.source, { ...base, onlyMainContent: true }).html);
    const { root, info } = parseHtml(page.source);
    removeNonMainByList(root);
    sums.main += main;
    sums.list += score(serializeHtml(root, new UrlResolver(PAGE_URL, info.baseHref)));
    sums.whole += score(processHtml(page.source, { ...base, onlyMainContent: false }).html);
    worst.push([page.name, main]);
  }
  worst.sort((a, b) => a[1] - b[1]);
  const n = pages.length;
  return { main: sums.main / n, list: sums.list / n, whole: sums.whole / n, worst: worst.slice(0, 5) };
}

export async function run() {
  const pages = loadCorpus();
  const bytes = pages.reduce((sum, page) => sum + Buffer.byteLength(page.source), 0);
  const list = await converters();
  console.log(`scrape: ${pages.length} pages, ${(bytes / 1e6).toFixed(1)} MB; ${WARMUP} warm-up + ${PASSES} timed passes each, interleaved (median per corpus pass)`);
  const results = measure(list, pages);
  const ours = results[0];
  list.forEach((c, i) => {
    const { median, min } = results[i];
    const mbs = bytes / 1e6 / (median / 1000);
    const ratio = i === 0 ? "" : `   scrapeline is ${(median / ours.median).toFixed(1)}× faster`;
    console.log(`  ${c.name.padEnd(58)} ${median.toFixed(0).padStart(6)} ms (min ${min.toFixed(0)})  ${mbs.toFixed(1).padStart(6)} MB/s  ${(pages.length / (median / 1000)).toFixed(0).padStart(5)} pages/s${ratio}`);
  });
  const q = await quality(pages);
  console.log("main content, mean token F1 against expected.html:");
  console.log(`  reader-view extraction (onlyMainContent)   ${q.main.toFixed(3)}`);
  console.log(`  the service's exclude-list rule            ${q.list.toFixed(3)}`);
  console.log(`  whole page, no extraction                  ${q.whole.toFixed(3)}`);
  console.log(`  lowest pages: ${q.worst.map(([name, f1]) => `${name} ${f1.toFixed(3)}`).join(", ")}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await run();
