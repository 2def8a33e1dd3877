/**
 * Document fixtures built in the tests: DOCX with the docx package, spreadsheets with SheetJS's
 * writer, ODT/ODP/EPUB/PPTX as zips written with fflate, RTF by hand.
 */
import * as XLSX from "@e965/xlsx";
import { AlignmentType, Document, ExternalHyperlink, FootnoteReferenceRun, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow, TextRun } from "docx";
import { strToU8, zipSync, type Zippable } from "fflate";

export async function makeDocx(): Promise<Uint8Array> {
  const cell = (text: string) => new TableCell({ children: [new Paragraph(text)] });
  const doc = new Document({
    creator: "Ada Lovelace",
    title: "Quarterly report",
    footnotes: { 1: { children: [new Paragraph("Figures are unaudited.")] } },
    sections: [
      {
        children: [
          new Paragraph({ text: "Quarterly report", heading: HeadingLevel.HEADING_1 }),
          new Paragraph({ children: [new TextRun("Revenue grew "), new TextRun({ text: "strongly", bold: true }), new FootnoteReferenceRun(1)] }),
          new Paragraph({ text: "Highlights", heading: HeadingLevel.HEADING_2 }),
          new Paragraph({ text: "New customers", bullet: { level: 0 } }),
          new Paragraph({ text: "Lower costs", bullet: { level: 0 } }),
          new Paragraph({ children: [new ExternalHyperlink({ link: "https://example.com/report", children: [new TextRun("Full report")] })], alignment: AlignmentType.LEFT }),
          new Table({ rows: [new TableRow({ children: [cell("Region"), cell("Sales")], tableHeader: true }), new TableRow({ children: [cell("North"), cell("120")] })] }),
        ],
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(doc));
}

export function makeWorkbook(bookType: "xlsx" | "xls" | "ods", sheets: Record<string, unknown[][]>, props: { Title?: string; Author?: string } = {}): Uint8Array {
  const workbook = XLSX.utils.book_new();
  for (const [name, rows] of Object.entries(sheets)) XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet(rows), name);
  workbook.Props = props;
  return new Uint8Array(XLSX.write(workbook, { type: "buffer", bookType }) as Buffer);
}

/** A zip whose first entry is the stored `mimetype` (ODF and EPUB require it). */
export function zipWithMimetype(mimetype: string, files: Record<string, string>): Uint8Array {
  const entries: Zippable = { mimetype: [strToU8(mimetype), { level: 0 }] };
  for (const [name, text] of Object.entries(files)) entries[name] = strToU8(text);
  return zipSync(entries);
}

const MANIFEST = `<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="x"/></manifest:manifest>`;
const ODF_NS = `xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0"`;

export function makeOdt(options: { encrypted?: boolean } = {}): Uint8Array {
  const content = `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${ODF_NS}><office:automatic-styles><style:style style:name="B1" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style></office:automatic-styles><office:body><office:text>
<text:h text:outline-level="1">Price list</text:h>
<text:p>Prices are <text:span text:style-name="B1">final</text:span>.<text:note text:note-class="footnote"><text:note-citation>1</text:note-citation><text:note-body><text:p>Excluding tax.</text:p></text:note-body></text:note></text:p>
<text:list><text:list-item><text:p>Apples</text:p></text:list-item><text:list-item><text:p>Pears</text:p></text:list-item></text:list>
<table:table><table:table-row><table:table-cell><text:p>Item</text:p></table:table-cell><table:table-cell><text:p>Price</text:p></table:table-cell></table:table-row><table:table-row><table:table-cell><text:p>Apple</text:p></table:table-cell><table:table-cell><text:p>2</text:p></table:table-cell></table:table-row></table:table>
<text:p><text:a xlink:href="https://example.com/prices">All prices</text:a></text:p>
<text:p><draw:frame><draw:image xlink:href="Pictures/logo.png"/><svg:title xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0">Logo</svg:title></draw:frame></text:p>
</office:text></office:body></office:document-content>`;
  const meta = `<?xml version="1.0" encoding="UTF-8"?><office:document-meta ${ODF_NS}><office:meta><dc:title>Price list 2024</dc:title><dc:creator>Grace Hopper</dc:creator><dc:date>2024-03-01T10:00:00</dc:date></office:meta></office:document-meta>`;
  const manifest = options.encrypted ? MANIFEST.replace("/>", "><manifest:encryption-data/></manifest:file-entry>") : MANIFEST;
  return zipWithMimetype("application/vnd.oasis.opendocument.text", { "content.xml": content, "meta.xml": meta, "META-INF/manifest.xml": manifest });
}

export function makeOdp(): Uint8Array {
  const content = `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${ODF_NS}><office:body><office:presentation>
<draw:page draw:name="page1"><draw:frame presentation:class="title"><draw:text-box><text:p>Roadmap</text:p></draw:text-box></draw:frame><draw:frame presentation:class="outline"><draw:text-box><text:list><text:list-item><text:p>Ship parse</text:p></text:list-item></text:list></draw:text-box></draw:frame></draw:page>
<draw:page draw:name="page2"><draw:frame><draw:text-box><text:p>Thanks</text:p></draw:text-box></draw:frame></draw:page>
</office:presentation></office:body></office:document-content>`;
  return zipWithMimetype("application/vnd.oasis.opendocument.presentation", { "content.xml": content, "META-INF/manifest.xml": MANIFEST });
}

export function makeEpub(): Uint8Array {
  const container = `<?xml version="1.0"?><container xmlns="urn:oasis:names:tc:opendocument:xmlns:container" version="1.0"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`;
  const opf = `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>A Small Book</dc:title><dc:creator>Mary Shelley</dc:creator><meta property="dcterms:modified">2024-05-06T07:08:09Z</meta></metadata><manifest><item id="c2" href="ch2.xhtml" media-type="application/xhtml+xml"/><item id="c1" href="ch1.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c1"/><itemref idref="c2"/></spine></package>`;
  const chapter = (title: string, text: string) => `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>`;
  return zipWithMimetype("application/epub+zip", { "META-INF/container.xml": container, "OEBPS/content.opf": opf, "OEBPS/ch1.xhtml": chapter("Chapter One", "It was a dark night."), "OEBPS/ch2.xhtml": chapter("Chapter Two", "Morning came.") });
}

export function makePptx(): Uint8Array {
  const ns = `xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"`;
  const slide = (title: string, bullets: string[], link?: boolean) =>
    `<?xml version="1.0"?><p:sld ${ns}><p:cSld><p:spTree><p:sp><p:nvSpPr><p:cNvPr id="1" name="t"/><p:cNvSpPr/><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:txBody><a:p><a:r><a:t>${title}</a:t></a:r></a:p></p:txBody></p:sp><p:sp><p:nvSpPr><p:cNvPr id="2" name="b"/><p:cNvSpPr/><p:nvPr><p:ph idx="1"/></p:nvPr></p:nvSpPr><p:txBody>${bullets.map((b) => `<a:p><a:r>${link ? `<a:rPr><a:hlinkClick r:id="rId9"/></a:rPr>` : ""}<a:t>${b}</a:t></a:r></a:p>`).join("")}</p:txBody></p:sp></p:spTree></p:cSld></p:sld>`;
  const files: Record<string, string> = {
    "[Content_Types].xml": `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`,
    "ppt/presentation.xml": `<?xml version="1.0"?><p:presentation ${ns}><p:sldIdLst><p:sldId id="256" r:id="rId2"/><p:sldId id="257" r:id="rId3"/></p:sldIdLst></p:presentation>`,
    "ppt/_rels/presentation.xml.rels": `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId3" Target="slides/slide2.xml"/><Relationship Id="rId2" Target="slides/slide1.xml"/></Relationships>`,
    "ppt/slides/slide1.xml": slide("Launch plan", ["Beta in May", "GA in June"]),
    "ppt/slides/slide2.xml": slide("Links", ["Docs"], true),
    "ppt/slides/_rels/slide2.xml.rels": `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId9" Target="https://example.com/docs" TargetMode="External"/></Relationships>`,
    "docProps/core.xml": `<?xml version="1.0"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/"><dc:title>Launch deck</dc:title><dc:creator>Alan Turing</dc:creator><dcterms:modified>2024-02-02T02:02:02Z</dcterms:modified></cp:coreProperties>`,
  };
  const entries: Zippable = {};
  for (const [name, text] of Object.entries(files)) entries[name] = strToU8(text);
  return zipSync(entries);
}

export const RTF = String.raw`{\rtf1\ansi\ansicpg1252\deff0{\fonttbl{\f0 Times;}}{\info{\title Memo}{\author Ada}}
{\pard\outlinelevel0\b Memo title\b0\par}
{\pard Caf\'e9 prices are \i rising\i0{\super\chftn}{\footnote\pard Source: survey.\par}.\par}
{\pard See {\field{\*\fldinst HYPERLINK "https://example.com/memo"}{\fldrslt the memo}} and \u8364? signs.\par}
}`;
