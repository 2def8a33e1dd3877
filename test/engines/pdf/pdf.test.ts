import { describe, expect, it } from "vitest";
import { isPdf, pdfToBase64, pdfToMarkdown } from "../../../src/engines/local/pdf/index.js";
import { makePdf } from "./make-pdf.js";

const threePages = makePdf(
  [
    [{ text: "Annual Report", size: 24 }, "The first page opens the report.", "It has two lines of body text."],
    ["Second page starts here.", "", "After a gap comes a new paragraph."],
    [{ text: "Closing Notes", size: 16 }, "Third page body text."],
  ],
  { title: "Report (2024)", author: "Ada Lovelace", subject: "Numbers" },
);

describe("pdfToMarkdown", () => {
  it("returns each page's text in order, pages separated by a blank line", async () => {
    const { markdown, numPages, totalPages } = await pdfToMarkdown(threePages);
    expect(numPages).toBe(3);
    expect(totalPages).toBe(3);
    expect(markdown).toBe(
      [
        "# Annual Report",
        "The first page opens the report. It has two lines of body text.",
        "Second page starts here.",
        "After a gap comes a new paragraph.",
        "## Closing Notes",
        "Third page body text.",
      ].join("\n\n") + "\n",
    );
  });

  it("accepts a Node Buffer and leaves it usable", async () => {
    const buffer = Buffer.from(threePages);
    const { numPages } = await pdfToMarkdown(buffer);
    expect(numPages).toBe(3);
    expect(buffer.byteLength).toBe(threePages.byteLength);
    expect(buffer.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  });

  it("makes a heading only of clearly larger text", async () => {
    const pdf = makePdf([[{ text: "Slightly Bigger", size: 13 }, "body line one", "body line two"]]);
    const { markdown } = await pdfToMarkdown(pdf);
    expect(markdown).not.toContain("#");
    const big = await pdfToMarkdown(makePdf([[{ text: "Big Title", size: 20 }, "body line one", "body line two"]]));
    expect(big.markdown.split("\n")[0]).toBe("# Big Title");
  });

  it("reads the Info dictionary", async () => {
    const { metadata } = await pdfToMarkdown(threePages);
    expect(metadata).toEqual({
      title: "Report (2024)",
      author: "Ada Lovelace",
      subject: "Numbers",
      producer: "make-pdf test helper",
      creationDate: "2024-01-02T03:04:05.000Z",
    });
  });

  it("parses at most maxPages pages and bills only those", async () => {
    const { markdown, numPages, totalPages } = await pdfToMarkdown(threePages, { maxPages: 2 });
    expect(numPages).toBe(2);
    expect(totalPages).toBe(3);
    expect(markdown).toContain("After a gap comes a new paragraph.");
    expect(markdown).not.toContain("Third page");
    expect((await pdfToMarkdown(threePages, { maxPages: 10_000 })).numPages).toBe(3);
  });

  it("joins hyphenated line ends and rebuilds lists", async () => {
    const pdf = makePdf([["A sentence with a hyphen-", "ated word and a well-", "Known name.", "• first item", "• second item", "which wraps", "1. numbered"]]);
    const { markdown } = await pdfToMarkdown(pdf);
    expect(markdown).toBe("A sentence with a hyphenated word and a well- Known name.\n\n- first item\n- second item which wraps\n1. numbered\n");
  });

  it("returns empty markdown for pages without text", async () => {
    const { markdown, numPages } = await pdfToMarkdown(makePdf([[], []]));
    expect(markdown).toBe("");
    expect(numPages).toBe(2);
  });
});

describe("isPdf", () => {
  const html = new TextEncoder().encode("<html><body>%PDF-</body></html>");
  it("recognises the %PDF- signature whatever the content type", () => {
    expect(isPdf(threePages, undefined)).toBe(true);
    expect(isPdf(threePages, "application/octet-stream")).toBe(true);
    expect(isPdf(new Uint8Array(0), undefined)).toBe(false);
    expect(isPdf(html, "text/html")).toBe(false);
  });
  it("recognises a PDF content type whatever the bytes", () => {
    expect(isPdf(html, "application/pdf")).toBe(true);
    expect(isPdf(html, "Application/PDF; charset=binary")).toBe(true);
    expect(isPdf(html, "application/x-pdf")).toBe(true);
    expect(isPdf(html, undefined)).toBe(false);
  });
});

describe("pdfToBase64", () => {
  it("round-trips the exact bytes", () => {
    const encoded = pdfToBase64(threePages);
    expect(encoded).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(new Uint8Array(Buffer.from(encoded, "base64"))).toEqual(threePages);
  });
  it("encodes only the view, not the whole underlying buffer", () => {
    const backing = new Uint8Array([0, 1, 2, 3, 4, 5]);
    expect(pdfToBase64(backing.subarray(2, 4))).toBe(Buffer.from([2, 3]).toString("base64"));
  });
});
