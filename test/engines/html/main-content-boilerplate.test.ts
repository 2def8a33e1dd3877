import { describe, expect, it } from "vitest";
import { htmlText, processHtml } from "../../../src/engines/local/html/index.js";
import { shingleCounts, shingleScores } from "../../../src/engines/local/html/quality.js";
import type { El } from "../../../src/engines/local/html/dom.js";
import { textContent } from "../../../src/engines/local/html/dom.js";
import { pruneBoilerplate } from "../../../src/engines/local/html/main-content/prune.js";
import { parseHtml } from "../../../src/engines/local/html/parse.js";
import { markdown } from "./helpers.js";

const PROSE = Array.from({ length: 6 }, (_, i) =>
  `<p>Paragraph ${i} of the story, with enough words, commas, and detail to read as prose, which is what a reader came for.</p>`).join("\n");

const main = (html: string): string => markdown(html, { onlyMainContent: true });

function findTag(el: El, tag: string): boolean {
  return el.children.some((child) => typeof child !== "string" && (child.tag === tag || findTag(child, tag)));
}

describe("onlyMainContent drops what a template puts around the story", () => {
  it("drops share bars, related links and newsletter boxes inside the article", () => {
    const out = main(`<article><h1>Headline</h1>${PROSE}
      <div class="article-share-tools"><p>Share this story with your friends and family</p></div>
      <div class="related-stories"><p>Another story that someone else wrote about something else entirely</p></div>
      <div class="newsletter-signup"><p>Get our daily briefing in your inbox every morning, free of charge</p></div>
    </article>`);
    expect(out).toContain("# Headline");
    expect(out).toContain("Paragraph 5 of the story");
    for (const clutter of ["Share this story", "Another story", "daily briefing"]) expect(out).not.toContain(clutter);
  });

  it("keeps an embedded post (a tweet in a social-media box) with its author line, and drops the share bar beside it", () => {
    const said = ["Yes, this is real, and the state spent half a million dollars on it", "It seems the rest of the campaigns are just as bad as this one"];
    const tweet = (n: number) => `<div class="social-media-embed"><blockquote class="twitter-tweet"><p lang="en" dir="ltr">${said[n - 1]}: <a href="https://t.co/x${n}">https://t.co/x${n}</a></p>— Someone Else ${n} (@someone${n}) <a href="https://twitter.com/someone${n}/status/${n}">November 18, 2019</a></blockquote></div>`;
    const out = main(`<html><body><article><h1>Headline</h1>${PROSE}${tweet(1)}<p>Between the posts, the story goes on with a sentence or two of its own words.</p>${tweet(2)}
      <div class="social-share"><a href="https://facebook.com/share">Facebook</a> <a href="https://twitter.com/share">Twitter</a></div></article></body></html>`);
    for (const n of [1, 2]) {
      expect(out).toContain(said[n - 1]);
      expect(out).toContain(`Someone Else ${n} (@someone${n})`);
    }
    expect(out).not.toContain("Facebook");
  });

  it("drops bylines, datelines and photo credits, and keeps the caption", () => {
    const out = main(`<article><h1>Headline</h1>
      <div><span>By Jane Doe - 11/18/19 11:04 PM EST</span></div>
      <p>Updated 5:27 am CST, Wednesday, November 20, 2019</p>
      <figure><img src="/a.jpg" alt="A harbour"><figcaption>Boats in the harbour at dawn.</figcaption><p class="image-credit">Photo: John Roe, AP</p></figure>
      ${PROSE}</article>`);
    expect(out).toContain("Boats in the harbour at dawn.");
    expect(out).toContain("![A harbour](https://example.com/a.jpg)");
    for (const clutter of ["Jane Doe", "5:27", "John Roe"]) expect(out).not.toContain(clutter);
  });

  it("drops a dateline written loose between blocks and keeps the text around it in order", () => {
    const out = main(`<article><div><h2>Harbour reopens</h2>Updated 5:27 am CST, November 20, 2019<p>The harbour reopened on Tuesday, after a week of repairs, and the first boats left at dawn.</p>Crews worked through the night, <em>in shifts</em>, to finish the quay before the storm season began.<p>More boats are expected.</p></div>${PROSE}</article>`);
    expect(out).not.toContain("5:27");
    const order = ["Harbour reopens", "The harbour reopened", "Crews worked through the night, *in shifts*, to finish", "More boats are expected."];
    const at = order.map((text) => out.indexOf(text));
    expect(at.every((index) => index >= 0), out).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  it("drops lines split by <br> when each is small print", () => {
    const out = main(`<article>${PROSE}<div class="s-data"><br>The Associated Press<br><span>Published Monday, November 18, 2019 8:22AM EST</span><br></div></article>`);
    expect(out).not.toContain("Associated Press");
    expect(out).not.toContain("Published");
  });

  it("drops a label such as \"Related articles\" with the link list after it", () => {
    const out = main(`<article>${PROSE}<h3>Related articles</h3>
      <ul><li><a href="/a">First other story</a></li><li><a href="/b">Second other story</a></li></ul></article>`);
    expect(out).toContain("Paragraph 5");
    expect(out).not.toContain("Related articles");
    expect(out).not.toContain("other story");
  });

  it("drops a paragraph that is only a link to another story, and keeps links inside prose", () => {
    const out = main(`<article>${PROSE}<p><a href="/other">Fans really want the band in the Hall of Fame</a></p>
      <p>The band, which <a href="/band">formed in 1970</a>, plays on July 2, with guests, as the tour reaches its last leg.</p></article>`);
    expect(out).not.toContain("Fans really want");
    expect(out).toContain("[formed in 1970](https://example.com/band)");
  });

  it("keeps only a marked story body, with the headline and lead figure before it", () => {
    // The article as extraction found it: a container holding the story's body and teasers for other stories.
    const teasers = Array.from({ length: 3 }, (_, i) =>
      `<div class="card"><h2>Teaser ${i}</h2><p>A short summary of another story, with a few words, for a reader to click.</p></div>`).join("");
    const { root } = parseHtml(`<div class="page"><h1>Headline</h1><figure><img src="/lead.jpg" alt="Lead"></figure>
      <div class="article-body">${PROSE}</div>${teasers}</div>`);
    pruneBoilerplate(root);
    const text = textContent(root);
    expect(text).toContain("Headline");
    expect(text).toContain("Paragraph 5");
    expect(findTag(root, "img")).toBe(true);
    expect(text).not.toContain("Teaser");
  });

  it("keeps the whole article when the marked body holds too little of it", () => {
    const { root } = parseHtml(`<div class="page"><div class="article-body"><p>A standfirst of a few words.</p></div>${PROSE}</div>`);
    pruneBoilerplate(root);
    expect(textContent(root)).toContain("Paragraph 5");
  });

  it("keeps a slideshow's repeated caption once", () => {
    const slide = `<li><img src="/s.jpg" alt=""><div class="caption">The minister shakes hands with his counterpart in Hanoi on Wednesday.</div></li>`;
    const out = main(`<article>${PROSE}<ul class="gallery">${slide}${slide}${slide}</ul></article>`);
    expect(out.split("The minister shakes hands").length - 1).toBe(1);
  });

  it("keeps tables, code blocks and quotes whatever their class says", () => {
    const out = main(`<article>${PROSE}
      <pre class="post-meta"><code>const shared = 1;</code></pre>
      <table class="prices"><tr><th>Share</th><th>Price</th></tr><tr><td>ACME</td><td>12</td></tr></table>
      <blockquote><p>By Jane Doe</p></blockquote></article>`);
    expect(out).toContain("const shared = 1;");
    expect(out).toContain("ACME");
    expect(out).toContain("By Jane Doe");
  });

  it("still lets excludeTags and includeTags decide", () => {
    const page = `<article>${PROSE}<p class="keep-me">By Jane Doe</p></article>`;
    expect(markdown(page, { onlyMainContent: true, includeTags: [".keep-me"] })).toBe("By Jane Doe\n");
    expect(markdown(page, { onlyMainContent: true, excludeTags: ["p:first-child"] })).not.toContain("Paragraph 0");
  });
});

describe("the article-extraction benchmark's metric", () => {
  it("matches 4-token shingles by count, case kept, and normalises per page", () => {
    expect(shingleCounts("a b c d e", "a b c d e")).toEqual({ tp: 1, fp: 0, fn: 0 });
    // Shingles of ours: [a b c d], [b c d x]; of the reference: [a b c d], [b c d e].
    expect(shingleCounts("a b c d x", "a b c d e")).toEqual({ tp: 1 / 3, fp: 1 / 3, fn: 1 / 3 });
    expect(shingleCounts("A b c d", "a b c d")).toEqual({ tp: 0, fp: 0.5, fn: 0.5 });
    // A text shorter than four tokens is one shingle.
    expect(shingleCounts("short text", "short text")).toEqual({ tp: 1, fp: 0, fn: 0 });
    expect(shingleCounts("", "")).toEqual({ tp: 0, fp: 0, fn: 0 });
  });

  it("averages precision over pages that predicted something, recall over pages with a reference", () => {
    const scores = shingleScores([{ tp: 0.5, fp: 0.5, fn: 0 }, { tp: 0, fp: 0, fn: 1 }, { tp: 0, fp: 0, fn: 0 }]);
    expect(scores.precision).toBeCloseTo(0.5);
    expect(scores.recall).toBeCloseTo(0.5);
    expect(scores.f1).toBeCloseTo(0.5);
  });
});
