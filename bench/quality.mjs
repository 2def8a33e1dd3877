// Main-content quality on two corpora, with the text of our onlyMainContent html (the path `scrape`
// uses): the article-extraction benchmark's pages, scored by its own metric (4-token shingles,
// F1 of mean precision and mean recall), and the 65 Readability pages (token F1 against
// expected.html, and the same shingle metric). Prints the worst pages with what was kept and lost.
// Then the repository's product corpus (test/fixtures/products): per group of pages, the share of
// the strings that must be kept (prices, stock, ratings, …) found in the markdown, and the share of
// the boilerplate strings (other products, newsletter, cookie banner, …) that leaked into it.
// Build first: it measures dist/ (`npm run build`). Asserts nothing.
import { readdirSync, readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { corpusDir } from "./corpus.mjs";
import { foldOf } from "./quality-folds.mjs";

const HTML_DIST = new URL("../dist/engines/local/html/", import.meta.url);
const WORST = Number(process.env.BENCH_WORST ?? 10);

export async function load() {
  const { processHtml } = await import(new URL("index.js", HTML_DIST).href);
  const quality = await import(new URL("quality.js", HTML_DIST).href);
  const mainText = (source, url) => {
    const result = processHtml(source, { url, onlyMainContent: true, removeBase64Images: false, blockAds: false, want: { html: true } });
    return { text: quality.htmlText(result.html ?? ""), metadata: result.metadata };
  };
  const mainMarkdown = (source, url) => processHtml(source, { url, onlyMainContent: true, removeBase64Images: false, blockAds: false, want: { markdown: true } }).markdown ?? "";
  return { mainText, mainMarkdown, ...quality };
}

const PRODUCTS = new URL("../test/fixtures/products/", import.meta.url);

/** Per page of the product corpus: its group, the strings to keep and to drop, and those missing and leaked. */
export function productCorpus(lib) {
  const expectations = JSON.parse(readFileSync(new URL("expectations.json", PRODUCTS), "utf8"));
  return Object.entries(expectations).map(([name, page]) => {
    const markdown = lib.mainMarkdown(readFileSync(new URL(`${name}.html`, PRODUCTS), "utf8"), `https://shop.example/${name}`);
    return { name, ...page, ...lib.checkStrings(markdown, page.keep, page.drop) };
  });
}

function productReport(pages) {
  const groups = new Map();
  for (const page of pages) {
    const group = groups.get(page.group) ?? { pages: 0, keep: 0, missing: 0, drop: 0, leaked: 0 };
    group.pages++;
    group.keep += page.keep.length;
    group.missing += page.missing.length;
    group.drop += page.drop.length;
    group.leaked += page.leaked.length;
    groups.set(page.group, group);
  }
  const all = { pages: 0, keep: 0, missing: 0, drop: 0, leaked: 0 };
  for (const group of groups.values()) for (const key of Object.keys(all)) all[key] += group[key];
  const pct = (part, whole) => (whole === 0 ? "—" : `${((100 * part) / whole).toFixed(1)} %`).padStart(7);
  console.log(`\nProduct corpus (test/fixtures/products): ${pages.length} pages`);
  console.log(`  ${"group".padEnd(16)} pages   kept   leaked`);
  for (const [name, g] of [...groups, ["all", all]]) console.log(`  ${name.padEnd(16)} ${String(g.pages).padStart(5)} ${pct(g.keep - g.missing, g.keep)} ${pct(g.leaked, g.drop)}`);
  for (const page of pages) {
    if (page.missing.length > 0) console.log(`  ${page.name}: lost ${page.missing.map((s) => JSON.stringify(s)).join(", ")}`);
    if (page.leaked.length > 0) console.log(`  ${page.name}: leaked ${page.leaked.map((s) => JSON.stringify(s)).join(", ")}`);
  }
  return { kept: pct(all.keep - all.missing, all.keep).trim(), leaked: pct(all.leaked, all.drop).trim() };
}

export function articleBenchmark(lib) {
  const dir = corpusDir("article-benchmark");
  const truth = JSON.parse(readFileSync(`${dir}ground-truth.json`, "utf8"));
  const pages = [];
  for (const [key, entry] of Object.entries(truth)) {
    const source = gunzipSync(readFileSync(`${dir}html/${key}.html.gz`)).toString("utf8");
    const { text } = lib.mainText(source, entry.url);
    pages.push({ key, name: `${key.slice(0, 8)} ${hostOf(entry.url)}`, text, reference: entry.articleBody ?? "", counts: lib.shingleCounts(text, entry.articleBody ?? "") });
  }
  return pages;
}

export function readability(lib) {
  const dir = corpusDir("main-content");
  const pages = [];
  let tokenSum = 0;
  for (const name of readdirSync(dir).sort()) {
    const source = readFileSync(`${dir}${name}/source.html`, "utf8");
    const reference = lib.htmlText(readFileSync(`${dir}${name}/expected.html`, "utf8"));
    const { text } = lib.mainText(source, "http://fakehost/test/page.html");
    tokenSum += lib.tokenF1(lib.tokenize(text), lib.tokenize(reference));
    pages.push({ name, text, reference, counts: lib.shingleCounts(text, reference) });
  }
  return { pages, tokenF1: tokenSum / pages.length };
}

function hostOf(url) {
  try {
    return new URL(url).hostname.replace(/^www\./, "");
  } catch {
    return "?";
  }
}

function pageF1({ tp, fp, fn }) {
  if (fp === 0 && fn === 0) return 1;
  return tp === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn);
}

/** Lines of `text` most of whose words are missing from `other` (what one side has and the other not). */
function unmatchedLines(text, other) {
  const words = new Set(other.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []);
  const out = [];
  for (const line of text.split(/\n+/)) {
    const tokens = line.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
    if (tokens.length === 0) continue;
    const missing = tokens.filter((t) => !words.has(t)).length;
    if (missing / tokens.length > 0.5 || (tokens.length <= 3 && missing > 0)) out.push(line.replace(/\s+/g, " ").trim());
  }
  return out;
}

function clip(text, n = 90) {
  return text.length > n ? text.slice(0, n - 1) + "…" : text;
}

function report(title, pages, lib) {
  const scores = lib.shingleScores(pages.map((p) => p.counts));
  console.log(`${title}: ${pages.length} pages  F1 ${scores.f1.toFixed(4)}  precision ${scores.precision.toFixed(4)}  recall ${scores.recall.toFixed(4)}`);
  const worst = [...pages].sort((a, b) => pageF1(a.counts) - pageF1(b.counts)).slice(0, WORST);
  for (const page of worst) {
    const { tp, fp, fn } = page.counts;
    const precision = tp + fp > 0 ? tp / (tp + fp) : 0;
    const recall = tp + fn > 0 ? tp / (tp + fn) : 0;
    console.log(`  ${pageF1(page.counts).toFixed(3)}  P ${precision.toFixed(3)} R ${recall.toFixed(3)}  ${page.name}`);
    const kept = unmatchedLines(page.text, page.reference);
    const lost = unmatchedLines(page.reference, page.text);
    if (kept.length) console.log(`      kept: ${kept.slice(0, 4).map((l) => JSON.stringify(clip(l, 70))).join(" | ")}${kept.length > 4 ? ` (+${kept.length - 4} lines)` : ""}`);
    if (lost.length) console.log(`      lost: ${lost.slice(0, 4).map((l) => JSON.stringify(clip(l, 70))).join(" | ")}${lost.length > 4 ? ` (+${lost.length - 4} lines)` : ""}`);
  }
  return scores;
}

export async function run() {
  const lib = await load();
  const articles = articleBenchmark(lib);
  report("article-extraction benchmark (development half), shingle F1", articles, lib);
  const { pages, tokenF1 } = readability(lib);
  console.log(`\nReadability corpus: mean token F1 against expected.html ${tokenF1.toFixed(4)}`);
  report("Readability corpus, shingle F1", pages, lib);
  const products = productReport(productCorpus(lib));
  const blocks = await blockCorpus();
  sideBySide(lib, articles, tokenF1, products, blocks);
}

/** The figures of every corpus in one table, with the peers' published F1 on the article benchmark. */
function sideBySide(lib, articles, readabilityF1, products, blocks) {
  const f1 = (group) => lib.shingleScores(group.map((p) => p.counts)).f1;
  const a = f1(articles.filter((p) => foldOf(p.key) === "A"));
  const b = f1(articles.filter((p) => foldOf(p.key) === "B"));
  console.log("\nSide by side");
  console.log(`  article benchmark, fold A      F1 ${a.toFixed(4)}`);
  console.log(`  article benchmark, fold B      F1 ${b.toFixed(4)}   fold gap ${Math.abs(a - b).toFixed(4)}`);
  console.log(`  Readability corpus             token F1 ${readabilityF1.toFixed(4)}`);
  console.log(`  product corpus                 kept ${products.kept}  leaked ${products.leaked}`);
  console.log(`  block-page corpus              told ${blocks.told}  ordinary pages flagged ${blocks.flagged}`);
  const published = readFileSync(`${corpusDir("article-benchmark")}README.md`, "utf8").match(/Published F1[^\n]*(?:\n(?!\n)[^\n]*)*/);
  if (published) console.log(`  peers, from the benchmark's README: ${published[0].replace(/\s+/g, " ")}`);
}

/** The block-page corpus (test/fixtures/blocked/): each block page told with its vendor, no ordinary page flagged. */
export async function blockCorpus() {
  const { detectBlockPage } = await import(new URL("../dist/engines/local/fetch/block-page.js", import.meta.url).href);
  const dir = new URL("../test/fixtures/blocked/", import.meta.url);
  const read = (index) => JSON.parse(readFileSync(new URL(index, dir), "utf8")).map((e) => ({ ...e, html: readFileSync(new URL(e.file, dir), "utf8") }));
  const blocks = read("block-pages.json");
  const ordinary = read("ordinary-pages.json");
  const started = process.hrtime.bigint();
  const told = blocks.map((page) => ({ page, vendor: detectBlockPage(page) }));
  const flagged = ordinary.map((page) => ({ page, vendor: detectBlockPage(page) })).filter((r) => r.vendor !== undefined);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const right = told.filter((r) => r.vendor === r.page.vendor).length;
  const missed = told.filter((r) => r.vendor === undefined).length;
  console.log(`\nBlock-page corpus: ${blocks.length} block pages, ${right} told with the right vendor, ${missed} missed, ${blocks.length - right - missed} with the wrong vendor; ${ordinary.length} ordinary pages, ${flagged.length} flagged (${ms.toFixed(1)} ms for ${blocks.length + ordinary.length} pages)`);
  for (const r of told.filter((r) => r.vendor !== r.page.vendor)) console.log(`  block page ${r.page.file}: expected ${r.page.vendor}, got ${r.vendor ?? "nothing"}`);
  for (const r of flagged) console.log(`  ordinary page ${r.page.file} flagged as ${r.vendor}`);
  return { told: `${right}/${blocks.length}`, flagged: `${flagged.length}/${ordinary.length}` };
}

if (process.argv[1] && new URL(import.meta.url).pathname === process.argv[1]) await run();
