import { describe, expect, test } from "vitest";
import { parseFile } from "../../../src/engines/local/parse/index.js";
import { makePdf } from "../pdf/make-pdf.js";
import { makeDocx, makeEpub, makeOdp, makeOdt, makePptx, makeWorkbook, RTF } from "./fixtures.js";
import { parseOptions } from "./options.js";

const text = (s: string) => new TextEncoder().encode(s);

async function parse(name: string, bytes: Uint8Array, overrides = {}) {
  return (await parseFile({ name, bytes, url: `file:///docs/${name}` }, parseOptions(overrides))).document;
}

describe("each format converts to markdown through the markdown writer", () => {
  test("DOCX: headings, bold, footnote, list, link, table; title and author from core.xml", async () => {
    const doc = await parse("report.docx", await makeDocx());
    expect(doc.markdown?.trimEnd()).toBe(
      [
        "# Quarterly report",
        "",
        "Revenue grew **strongly**[\\[1\\]](file:///docs/report.docx#footnote-1)",
        "",
        "## Highlights",
        "",
        "- New customers",
        "- Lower costs",
        "",
        "[Full report](https://example.com/report)",
        "",
        "| Region | Sales |",
        "| --- | --- |",
        "| North | 120 |",
        "",
        "1. Figures are unaudited. [↑](file:///docs/report.docx#footnote-ref-1)",
      ].join("\n"),
    );
    expect(doc.metadata).toMatchObject({ title: "Quarterly report", author: "Ada Lovelace", format: "docx", contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", statusCode: 200 });
    expect(typeof doc.metadata.modifiedTime).toBe("string");
  });

  test("XLSX: one GFM table per sheet under a ## heading, sheets and properties in metadata", async () => {
    const doc = await parse("prices.xlsx", makeWorkbook("xlsx", { Prices: [["Item", "Price"], ["Apple", 2], ["Pear", 3]], Notes: [["Seasonal"]] }, { Title: "Prices", Author: "Finance" }));
    expect(doc.markdown?.trimEnd()).toBe("## Prices\n\n| Item | Price |\n| --- | --- |\n| Apple | 2 |\n| Pear | 3 |\n\n## Notes\n\n| Seasonal |\n| --- |");
    expect(doc.metadata).toMatchObject({ sheets: ["Prices", "Notes"], title: "Prices", author: "Finance", format: "xlsx" });
  });

  test("maxRows keeps the first rows of each sheet and says how many were left out", async () => {
    const rows = [["n", "square"], ...Array.from({ length: 50 }, (_, i) => [i, i * i])];
    const doc = await parse("long.xlsx", makeWorkbook("xlsx", { Long: rows }), { maxRows: 3 });
    expect(doc.markdown?.trimEnd()).toBe("## Long\n\n| n | square |\n| --- | --- |\n| 0 | 0 |\n| 1 | 1 |");
    expect(doc.warning).toContain('sheet "Long": 48 row(s) after the first 3 were left out (maxRows)');
  });

  test("a one-column sheet (and a one-column CSV) is still a GFM table; the html's sheet tables say data-sheet", async () => {
    const doc = await parse("list.xlsx", makeWorkbook("xlsx", { Names: [["Name"], ["Ada"], ["Grace"]], Empty: [] }), { formats: [{ type: "markdown" }, { type: "html" }] });
    expect(doc.markdown?.trimEnd()).toBe("## Names\n\n| Name |\n| --- |\n| Ada |\n| Grace |\n\n## Empty");
    expect(doc.html).toContain('<table data-sheet="">');
    const csv = await parse("one.csv", text("sku\nA1\nB2\n"));
    expect(csv.markdown?.trimEnd()).toBe("| sku |\n| --- |\n| A1 |\n| B2 |");
  });

  test("a one-column table of a web page is still layout, written as plain lines", async () => {
    const doc = await parse("page.html", text("<html><body><main><h1>Menu</h1><table><tr><td>Soup</td></tr><tr><td>Bread</td></tr></table></main></body></html>"));
    expect(doc.markdown).toContain("Soup\n\nBread");
    expect(doc.markdown).not.toContain("|");
  });

  test("RTF: a bold heading is written # Title, bold words in a paragraph stay bold", async () => {
    const rtf = String.raw`{\rtf1\ansi{\pard\outlinelevel0\b Annual \i review\i0\b0\par}{\pard Sales were \b up\b0 .\par}}`;
    const doc = await parse("annual.rtf", text(rtf));
    expect(doc.markdown?.trimEnd()).toBe("# Annual *review*\n\nSales were **up**.");
  });

  test("DOCX: a heading whose runs are bold is written # Title; a heading with one bold word keeps it", async () => {
    const { Document, HeadingLevel, Packer, Paragraph, TextRun } = await import("docx");
    const heading = (level: (typeof HeadingLevel)[keyof typeof HeadingLevel], ...runs: InstanceType<typeof TextRun>[]) => new Paragraph({ heading: level, children: runs });
    const docx = new Document({ sections: [{ children: [heading(HeadingLevel.HEADING_1, new TextRun({ text: "Annual report", bold: true })), heading(HeadingLevel.HEADING_2, new TextRun("A "), new TextRun({ text: "bold", bold: true }), new TextRun(" word"))] }] });
    const doc = await parse("bold.docx", new Uint8Array(await Packer.toBuffer(docx)));
    expect(doc.markdown?.trimEnd()).toBe("# Annual report\n\n## A **bold** word");
  });

  test("DOCX: a paragraph in Word's Title style is a heading", async () => {
    const { Document, HeadingLevel, Packer, Paragraph } = await import("docx");
    const docx = new Document({ sections: [{ children: [new Paragraph({ text: "Price list 2027", heading: HeadingLevel.TITLE }), new Paragraph("Valid from March.")] }] });
    const doc = await parse("title.docx", new Uint8Array(await Packer.toBuffer(docx)));
    expect(doc.markdown?.trimEnd()).toBe("# Price list 2027\n\nValid from March.");
  });

  test("XLS and ODS read like XLSX", async () => {
    for (const type of ["xls", "ods"] as const) {
      const doc = await parse(`book.${type}`, makeWorkbook(type, { Sheet: [["a", "b"], [1, 2]] }));
      expect(doc.markdown?.trimEnd(), type).toBe("## Sheet\n\n| a | b |\n| --- | --- |\n| 1 | 2 |");
      expect(doc.metadata.format).toBe(type);
    }
  });

  test("CSV: one table, no heading, values kept as written", async () => {
    const doc = await parse("stock.csv", text("\uFEFFname,qty,code\nwidget,3,007\n\"a, b\",4,010\n"));
    expect(doc.markdown?.trimEnd()).toBe("| name | qty | code |\n| --- | --- | --- |\n| widget | 3 | 007 |\n| a, b | 4 | 010 |");
    expect(doc.metadata.contentType).toBe("text/csv");
  });

  test("HTML: the page pipeline, main content and metadata", async () => {
    const doc = await parse("page.html", text("<!doctype html><html><head><title>Spec sheet</title></head><body><nav><a href='/'>Home</a></nav><main><h1>Spec</h1><p>Weight: 2 kg</p></main></body></html>"));
    expect(doc.markdown).toContain("# Spec\n\nWeight: 2 kg");
    expect(doc.metadata.title).toBe("Spec sheet");
  });

  test("PDF: the pdfjs path, pages in metadata (numPages bills per page)", async () => {
    const doc = await parse("q3.pdf", makePdf([["First page text"], ["Second page text"]], { title: "Q3" }));
    expect(doc.markdown).toContain("First page text");
    expect(doc.markdown).toContain("Second page text");
    expect(doc.metadata).toMatchObject({ pages: 2, title: "Q3", format: "pdf", contentType: "application/pdf" });
  });

  test("ODT: headings, bold from automatic styles, footnotes, lists, tables, links, image references", async () => {
    const doc = await parse("prices.odt", makeOdt());
    expect(doc.markdown?.trimEnd()).toBe(
      "# Price list\n\nPrices are **final**.[\\[1\\]](file:///docs/prices.odt#fn-1)\n\n- Apples\n- Pears\n\n| Item | Price |\n| --- | --- |\n| Apple | 2 |\n\n[All prices](https://example.com/prices)\n\n![](file:///docs/Pictures/logo.png)\n\n1. Excluding tax.",
    );
    expect(doc.metadata).toMatchObject({ title: "Price list 2024", author: "Grace Hopper", modifiedTime: "2024-03-01T10:00:00.000Z" });
  });

  test("ODP and PPTX: one section per slide, titled by the title placeholder", async () => {
    const odp = await parse("deck.odp", makeOdp());
    expect(odp.markdown?.trimEnd()).toBe("## Roadmap\n\n- Ship parse\n\n## Slide 2\n\nThanks");
    expect(odp.metadata.pages).toBe(2);
    const pptx = await parse("deck.pptx", makePptx());
    expect(pptx.markdown?.trimEnd()).toBe("## Launch plan\n\n- Beta in May\n- GA in June\n\n## Links\n\n[Docs](https://example.com/docs)");
    expect(pptx.metadata).toMatchObject({ pages: 2, title: "Launch deck", author: "Alan Turing", modifiedTime: "2024-02-02T02:02:02.000Z" });
  });

  test("EPUB: chapters in spine order (not manifest order)", async () => {
    const doc = await parse("book.epub", makeEpub());
    expect(doc.markdown?.trimEnd()).toBe("# Chapter One\n\nIt was a dark night.\n\n# Chapter Two\n\nMorning came.");
    expect(doc.metadata).toMatchObject({ title: "A Small Book", author: "Mary Shelley", modifiedTime: "2024-05-06T07:08:09.000Z" });
  });

  test("RTF: outline heading, code-page and \\u characters, hyperlink field, footnote", async () => {
    const doc = await parse("memo.rtf", text(RTF));
    expect(doc.markdown?.trimEnd()).toBe("# Memo title\n\nCafé prices are *rising*[\\[1\\]](file:///docs/memo.rtf#fn-1).\n\nSee [the memo](https://example.com/memo) and € signs.\n\n1. Source: survey.");
    expect(doc.metadata).toMatchObject({ title: "Memo", author: "Ada" });
  });

  test("detection is by content: a DOCX named .bin still converts", async () => {
    const doc = await parse("download.bin", await makeDocx());
    expect(doc.metadata.format).toBe("docx");
  });

  test("links and html formats come from the converted HTML", async () => {
    const doc = await parse("prices.odt", makeOdt(), { formats: [{ type: "links" }, { type: "html" }] });
    expect(doc.links).toContain("https://example.com/prices");
    expect(doc.html).toContain("<table>");
    expect(doc.markdown).toBeUndefined();
  });
});
