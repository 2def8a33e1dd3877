// The shared corpora: 65 real-world pages (Mozilla Readability's test pages) that stay out of the
// repository for their licences. They are measured when SCRAPELINE_CORPUS names the folder holding
// them (CI sets it); without it these tests are skipped and say so, and the
// repository's own pages (test/fixtures/main-content) cover the same code.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { Tokenizer } from "htmlparser2";
import { describe, expect, it } from "vitest";
import { htmlText, processHtml } from "../../src/engines/local/html/index.js";
import { shingleCounts, shingleScores } from "../../src/engines/local/html/quality.js";
import { FastTokenizer } from "../../src/engines/local/html/tokenizer.js";
import { mainContentF1, readCorpus, sharedCorpus } from "../helpers/corpus.js";
import { tokenizerEvents } from "../engines/html/helpers.js";

const corpus = sharedCorpus();
if (!corpus) console.warn("shared corpus tests skipped: set SCRAPELINE_CORPUS to the folder of the shared corpora to run them");

const title = corpus ? `shared corpus at ${corpus}` : "shared corpus (skipped: SCRAPELINE_CORPUS is not set)";

describe.skipIf(!corpus)(title, () => {
  const pages = () => readCorpus(`${corpus}/main-content`);

  it("keeps the main content of the 65 pages (mean token F1 ≥ 0.85)", () => {
    const all = pages();
    expect(all.length).toBe(65);
    const mean = all.reduce((sum, page) => sum + mainContentF1(page), 0) / all.length;
    expect(mean).toBeGreaterThanOrEqual(0.85);
  });

  it("tokenizes every page exactly like htmlparser2", () => {
    for (const page of pages()) {
      expect(tokenizerEvents(FastTokenizer, page.source), page.name).toEqual(tokenizerEvents(Tokenizer, page.source));
    }
  });
});

describe.skipIf(!corpus)(`${title}: article-extraction benchmark, development half`, () => {
  it("keeps the article bodies: F1 ≥ 0.973 by the benchmark's metric", () => {
    const dir = resolve(corpus!, "article-benchmark");
    const truth = JSON.parse(readFileSync(resolve(dir, "ground-truth.json"), "utf8")) as Record<string, { articleBody?: string; url: string }>;
    const pages = Object.entries(truth).map(([key, entry]) => {
      const source = gunzipSync(readFileSync(resolve(dir, "html", `${key}.html.gz`))).toString("utf8");
      const html = processHtml(source, { url: entry.url, onlyMainContent: true, removeBase64Images: false, blockAds: false, want: { html: true } }).html!;
      return shingleCounts(htmlText(html), entry.articleBody ?? "");
    });
    expect(pages.length).toBe(91);
    const { f1, precision, recall } = shingleScores(pages);
    expect(f1).toBeGreaterThanOrEqual(0.973);
    expect(precision).toBeGreaterThanOrEqual(0.955);
    expect(recall).toBeGreaterThanOrEqual(0.985);
  });
});
