import { describe, expect, it } from "vitest";
import { markdown } from "./helpers.js";

const PROSE = Array.from({ length: 6 }, (_, i) =>
  `<p>Paragraph ${i} of the story, with enough words, commas, and detail to read as prose, which is what a reader came for.</p>`).join("\n");

const main = (html: string): string => markdown(`<html><body>${html}</body></html>`, { onlyMainContent: true });
const FULL = "Two ministers shake hands in the capital on Wednesday, Nov. 20, 2019, at the start of a visit meant to strengthen relations";
const count = (text: string, part: string): number => text.split(part).length - 1;

describe("onlyMainContent keeps an expandable caption once", () => {
  it("drops the cut-short copy of a caption shown in full beside it", () => {
    const out = main(`<article><h1>Headline</h1>${PROSE}<figure><img src="/a.jpg" alt="">
      <figcaption><div class="caption-full">${FULL}. <a href="#">less</a></div><div class="caption-truncated">${FULL.slice(0, 90)} ... <a href="#">more</a></div></figcaption></figure><p>After the picture, the story goes on with a sentence or two of its own words.</p></article>`);
    expect(count(out, FULL.slice(0, 60))).toBe(1);
    expect(out).toContain("at the start of a visit meant to strengthen relations");
    expect(out).toContain("Paragraph 5 of the story");
    expect(out).toContain("After the picture, the story goes on");
  });

  it("keeps two captions that only begin alike", () => {
    const first = "Protesters gather outside the parliament building on Tuesday evening as police look on from the steps";
    const second = "Protesters gather outside the parliament building on Wednesday morning, a day after the vote, more";
    const out = main(`<article><h1>Headline</h1>${PROSE}<figure><img src="/a.jpg" alt=""><figcaption>${first}</figcaption></figure><p>Between the pictures, the story goes on with a sentence or two of its own words.</p><figure><img src="/b.jpg" alt=""><figcaption>${second}</figcaption></figure></article>`);
    expect(out).toContain(first);
    expect(out).toContain(second);
  });
});
