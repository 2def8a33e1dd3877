// The shared corpora: 65 real-world pages (Mozilla Readability's test pages) that stay out of the
// repository for their licences. They are measured when SCRAPELINE_CORPUS names the folder holding
// them (CI sets it to ../shared/corpus); without it these tests are skipped and say so, and the
// repository's own pages (test/fixtures/main-content) cover the same code.
import { Tokenizer } from "htmlparser2";
import { describe, expect, it } from "vitest";
import { FastTokenizer } from "../../src/engines/local/html/tokenizer.js";
import { mainContentF1, readCorpus, sharedCorpus } from "../helpers/corpus.js";
import { tokenizerEvents } from "../engines/html/helpers.js";

const corpus = sharedCorpus();
if (!corpus) console.warn("shared corpus tests skipped: set SCRAPELINE_CORPUS to the folder of the shared corpora (CI: ../shared/corpus) to run them");

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
