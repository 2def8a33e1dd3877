import { describe, expect, it } from "vitest";
import { tokenF1, tokenize } from "../../../src/engines/local/html/index.js";
import { mainContentF1, OWN_CORPUS, readCorpus } from "../../helpers/corpus.js";
import { run } from "./helpers.js";

const ARTICLE = Array.from({ length: 6 }, (_, i) =>
  `<p>Paragraph ${i} of the story, with enough words, commas, and detail to look like prose that people read, which matters.</p>`).join("");

const PAGE = `<html><body>
  <header class="site-header"><a href="/">Home</a><nav><a href="/news">News</a> <a href="/sport">Sport</a></nav></header>
  <div class="layout">
    <aside class="sidebar"><h3>Popular</h3><ul><li><a href="/p1">Popular one</a></li><li><a href="/p2">Popular two</a></li></ul></aside>
    <main><article class="post-content"><h1>The headline</h1>${ARTICLE}<figure><img src="/fig.png" alt="figure"></figure></article>
      <div class="share-tools"><a href="https://twitter.com/share">Tweet</a></div>
      <section class="comments"><h3>12 comments</h3><p>First!</p></section></main>
  </div>
  <footer id="footer"><p>© Example, all rights reserved</p><a href="/privacy">Privacy</a></footer>
</body></html>`;

describe("onlyMainContent", () => {
  it("keeps the article and drops navigation, sidebars, share tools, comments and the footer", () => {
    const result = run(PAGE, { onlyMainContent: true });
    const markdown = result.markdown!;
    expect(markdown).toContain("# The headline");
    expect(markdown).toContain("Paragraph 0 of the story");
    expect(markdown).toContain("Paragraph 5 of the story");
    expect(markdown).toContain("![figure](https://example.com/fig.png)");
    for (const clutter of ["Home", "Sport", "Popular", "Tweet", "comments", "First!", "rights reserved", "Privacy"]) {
      expect(markdown).not.toContain(clutter);
    }
    // The links format follows the cleaned content, as the service's.
    expect(result.links).toEqual([]);
  });

  it("keeps everything without it", () => {
    expect(run(PAGE).markdown).toContain("Popular one");
  });

  it("drops hidden elements", () => {
    const html = `<article>${ARTICLE}<p style="display: none">Hidden one</p><p hidden>Hidden two</p><div aria-hidden="true">Hidden three</div></article>`;
    expect(run(html, { onlyMainContent: true }).markdown).not.toMatch(/Hidden/);
  });

  it("falls back to the whole page when no content stands out", () => {
    expect(run("<div><span>Just a short note.</span></div>", { onlyMainContent: true }).markdown).toBe("Just a short note.\n");
    expect(run('<nav><a href="/a">A</a></nav>', { onlyMainContent: true }).markdown).toBe("[A](https://example.com/a)\n");
  });

  it("with includeTags, applies only the exclude-list rule to the selection", () => {
    const html = `<div id="pick"><header>Top</header><p>Chosen text</p></div><p>Elsewhere</p>`;
    expect(run(html, { onlyMainContent: true, includeTags: ["#pick"] }).markdown).toBe("Chosen text\n");
  });
});

describe("token F1", () => {
  it("scores a bag of words", () => {
    expect(tokenF1(tokenize("a b c"), tokenize("A, b! c."))).toBe(1);
    expect(tokenF1(tokenize("a a"), tokenize("a"))).toBeCloseTo(2 / 3);
    expect(tokenF1([], [])).toBe(1);
    expect(tokenF1(tokenize("x"), [])).toBe(0);
    expect(tokenize("中文字 abc")).toEqual(["中", "文", "字", "abc"]);
  });
});

describe("corpus", () => {
  // The repository's own pages (test/fixtures/main-content); the 65 pages of the shared corpus are
  // measured by test/corpus/shared-corpus.test.ts when SCRAPELINE_CORPUS names them.
  it("keeps the main content of the repository's corpus pages (token F1 ≥ 0.8 each, ≥ 0.9 on average)", () => {
    const pages = readCorpus(OWN_CORPUS);
    expect(pages.length).toBe(8);
    const scores = pages.map((page) => ({ name: page.name, f1: mainContentF1(page) }));
    expect(scores.filter((score) => score.f1 < 0.8)).toEqual([]);
    expect(scores.reduce((sum, score) => sum + score.f1, 0) / scores.length).toBeGreaterThanOrEqual(0.9);
  });
});
