import { describe, expect, it } from "vitest";
import { markdown } from "./helpers.js";

const PROSE = Array.from({ length: 6 }, (_, i) =>
  `<p>Paragraph ${i} of the story, with enough words, commas, and detail to read as prose, which is what a reader came for.</p>`).join("\n");

const main = (html: string): string => markdown(html, { onlyMainContent: true });

describe("onlyMainContent drops the cards that pop up over a link", () => {
  it("drops a person's hover card inside a sentence and keeps the name the sentence shows", () => {
    const card = `<span class="person-hovercard"><span><img src="/p.jpg" alt=""><a href="/people/jane-doe">Jane Doe</a><a href="/story/2">Another story about something else entirely</a></span></span>`;
    const out = main(`<article>${PROSE}<p>The bill was drafted by Sen. <span class="people-rollover"><a href="/people/jane-doe">Jane Doe</a>${card}</span> (D-Ore.), who said it would pass.</p></article>`);
    expect(out).toContain("Jane Doe](https://example.com/people/jane-doe) (D-Ore.), who said it would pass.");
    expect(out).not.toContain("Another story about something else");
  });

  it("keeps a tooltip whose own text explains a word, and text in a block named like a popup that holds words of its own", () => {
    const out = main(`<article>${PROSE}<p>The <span class="tooltip">quorum<span class="tooltip-text">the least number of members who must be present</span></span> was met.</p>
      <div class="note hover-box">A short note in the story that a reader sees in place, with its own words.</div></article>`);
    expect(out).toContain("the least number of members who must be present");
    expect(out).toContain("A short note in the story that a reader sees in place");
  });
});
