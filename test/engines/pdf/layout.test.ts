import { describe, expect, it } from "vitest";
import { blocksOf, joinLines } from "../../../src/engines/local/pdf/blocks.js";
import { linesOf, type TextRun } from "../../../src/engines/local/pdf/lines.js";
import { renderMarkdown } from "../../../src/engines/local/pdf/markdown.js";

/** A run of `text` in a 10 pt font at (x, y), about 5 pt per character wide. */
function run(text: string, x: number, y: number, extra: Partial<TextRun> = {}): TextRun {
  return { text, x, y, width: text.length * 5, size: 10, endsLine: false, ...extra };
}

describe("linesOf", () => {
  it("breaks lines where the baseline moves and spaces runs apart by their gap", () => {
    const lines = linesOf([run("Hello", 0, 100), run("world", 28, 100), run("again", 0, 88), run("ing", 25, 88)]);
    expect(lines.map((l) => l.text)).toEqual(["Hello world", "againing"]);
  });

  it("keeps a superscript on its line and drops simulated-bold overprints", () => {
    const lines = linesOf([run("E = mc", 0, 100), run("2", 30, 103), run("Bold", 0, 80), run("Bold", 0.4, 80)]);
    expect(lines.map((l) => l.text)).toEqual(["E = mc2", "Bold"]);
  });

  it("honours end-of-line marks and drops control characters", () => {
    const lines = linesOf([run("one\u0000", 0, 100, { endsLine: true }), run("two", 30, 100)]);
    expect(lines.map((l) => l.text)).toEqual(["one", "two"]);
  });

  it("gives a line its dominant font size", () => {
    const [line] = linesOf([run("A", 0, 100, { size: 30 }), run("long body text", 20, 100)]);
    expect(line?.size).toBe(10);
  });
});

describe("blocksOf", () => {
  const line = (text: string, y: number, x = 0, size = 10) => ({ text, x, y, size });

  it("splits paragraphs at wide gaps and indented sentence starts", () => {
    const blocks = blocksOf([
      line("First paragraph line one", 100),
      line("and line two.", 88),
      line("Second paragraph after a gap", 64),
      line("ends here.", 52),
      line("Indented third paragraph", 40, 15),
    ]);
    expect(blocks.map((b) => b.text)).toEqual(["First paragraph line one and line two.", "Second paragraph after a gap ends here.", "Indented third paragraph"]);
  });

  it("starts a block when the size changes or the text jumps upwards", () => {
    const blocks = blocksOf([line("Title", 200, 0, 20), line("body", 180), line("column two", 400)]);
    expect(blocks.map((b) => b.text)).toEqual(["Title", "body", "column two"]);
  });
});

describe("joinLines", () => {
  it("mends hyphenation only between lower-case letters", () => {
    expect(joinLines(["a hyphen-", "ated word"])).toBe("a hyphenated word");
    expect(joinLines(["Jean-", "Paul"])).toBe("Jean- Paul");
    expect(joinLines(["soft\u00ad", "hyphen"])).toBe("softhyphen");
    expect(joinLines(["no", "hyphen"])).toBe("no hyphen");
  });
});

describe("renderMarkdown", () => {
  const line = (text: string, y: number, size = 10) => ({ text, x: 0, y, size });

  it("ranks heading sizes: the largest is #, the others ##", () => {
    const markdown = renderMarkdown([
      [line("Title", 700, 24), line("Section", 660, 14), line("Body text that is long enough to be the body.", 640)],
      [line("More body text on page two.", 700), line("Another Section", 670, 14)],
    ]);
    expect(markdown).toBe("# Title\n\n## Section\n\nBody text that is long enough to be the body.\n\nMore body text on page two.\n\n## Another Section\n");
  });

  it("reads a large numbered line as a heading, a body-size one as a list item", () => {
    const markdown = renderMarkdown([[line("1. Introduction", 700, 14), line("1. first point of the body text", 680), line("2. second point of the body text", 668)]]);
    expect(markdown).toBe("# 1. Introduction\n\n1. first point of the body text\n2. second point of the body text\n");
  });

  it("escapes paragraphs that would read as Markdown headings or quotes", () => {
    expect(renderMarkdown([[line("#hashtag text", 100)], [line("> not a quote", 100)]])).toBe("\\#hashtag text\n\n\\> not a quote\n");
  });

  it("returns an empty string without text", () => {
    expect(renderMarkdown([[], []])).toBe("");
  });
});
