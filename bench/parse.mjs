// Document parsing benchmark: DOCX and XLSX → markdown through our parse path (format detection,
// zip checks, the reader, then the page markdown writer) against the plain library path a
// project would write by hand (DOCX: mammoth → turndown + GFM plugin; XLSX: SheetJS
// sheet_to_html per sheet → turndown + GFM plugin). The same generated documents go to both;
// passes are interleaved (one of each converter in turn) so a load spike hits all of them, and
// medians are compared. Prints; asserts nothing.
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { random, sentence } from "./random-text.mjs";

const PASSES = Number(process.env.BENCH_PASSES ?? 7);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1);
const require = createRequire(import.meta.url);

/** A report: `sections` × (heading, paragraphs with bold and links, a list, a 12-row table). */
export async function makeDocx(sections, seed) {
  const { Document, ExternalHyperlink, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow, TextRun } = await import("docx");
  const rnd = random(seed);
  const cell = (text) => new TableCell({ children: [new Paragraph(text)] });
  const children = [new Paragraph({ text: "Annual report", heading: HeadingLevel.HEADING_1 })];
  for (let s = 0; s < sections; s++) {
    children.push(new Paragraph({ text: `Section ${s + 1}: ${sentence(rnd, 3)}`, heading: HeadingLevel.HEADING_2 }));
    for (let p = 0; p < 4; p++) {
      children.push(new Paragraph({ children: [new TextRun(`${sentence(rnd, 25)} `), new TextRun({ text: sentence(rnd, 3), bold: true }), new TextRun(` ${sentence(rnd, 20)} `), new ExternalHyperlink({ link: `https://example.com/${s}/${p}`, children: [new TextRun(sentence(rnd, 2))] }), new TextRun(".")] }));
    }
    for (let i = 0; i < 4; i++) children.push(new Paragraph({ text: sentence(rnd, 8), bullet: { level: 0 } }));
    const rows = [new TableRow({ tableHeader: true, children: ["Region", "Plan", "Customers", "Revenue"].map(cell) })];
    for (let r = 0; r < 12; r++) rows.push(new TableRow({ children: [sentence(rnd, 1), sentence(rnd, 2), String(Math.floor(rnd() * 1000)), (rnd() * 10000).toFixed(2)].map(cell) }));
    children.push(new Table({ rows }));
  }
  return new Uint8Array(await Packer.toBuffer(new Document({ creator: "Bench", title: "Annual report", sections: [{ children }] })));
}

/** A workbook of `sheets` sheets of `rows` × 8 columns (text, numbers, dates). */
function makeXlsx(XLSX, sheets, rows, seed) {
  const rnd = random(seed);
  const book = XLSX.utils.book_new();
  for (let s = 0; s < sheets; s++) {
    const data = [["id", "name", "plan", "region", "seats", "price", "total", "renewal"]];
    for (let r = 0; r < rows; r++) {
      const seats = 1 + Math.floor(rnd() * 500);
      const price = Math.round(rnd() * 10000) / 100;
      data.push([r + 1, sentence(rnd, 2), sentence(rnd, 1), sentence(rnd, 1), seats, price, Math.round(seats * price * 100) / 100, new Date(Date.UTC(2026, Math.floor(rnd() * 12), 1 + Math.floor(rnd() * 28)))]);
    }
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(data), `Sheet ${s + 1}`);
  }
  return new Uint8Array(XLSX.write(book, { type: "buffer", bookType: "xlsx" }));
}

function median(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Interleaved passes over every document; each converter's median pass in ms. */
async function measure(converters, documents) {
  const samples = converters.map(() => []);
  for (let pass = 0; pass < WARMUP + PASSES; pass++) {
    for (const [i, converter] of converters.entries()) {
      const start = process.hrtime.bigint();
      for (const doc of documents) await converter.convert(doc);
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (pass >= WARMUP) samples[i].push(ms);
    }
  }
  return samples.map(median);
}

async function measureOnce(converters, doc) {
  const out = [];
  for (const converter of converters) {
    const start = process.hrtime.bigint();
    await converter.convert(doc);
    out.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return out;
}

function report(title, converters, documents, medians) {
  const bytes = documents.reduce((n, d) => n + d.bytes.byteLength, 0);
  console.log(`\n${title}: ${documents.length} documents, ${(bytes / 1e6).toFixed(2)} MB (${documents.map((d) => d.label).join(", ")})`);
  const ours = medians[0];
  for (const [i, converter] of converters.entries()) {
    const ms = medians[i];
    const ratio = i === 0 ? "—" : ms >= ours ? `${(ms / ours).toFixed(2)}× faster` : `${(ours / ms).toFixed(2)}× slower`;
    console.log(`  ${converter.name.padEnd(44)} ${ms.toFixed(1).padStart(9)} ms  ${(bytes / 1e6 / (ms / 1000)).toFixed(2).padStart(7)} MB/s   scrapeline is ${ratio}`);
  }
}

export async function run() {
  const XLSX = await import("@e965/xlsx");
  const mammoth = (await import("mammoth")).default;
  const TurndownService = require("turndown");
  const { gfm } = require("@joplin/turndown-plugin-gfm");
  const turndown = new TurndownService({ headingStyle: "atx", bulletListMarker: "-" });
  turndown.use(gfm);
  const { parseFile } = await import(new URL("../dist/engines/local/parse/index.js", import.meta.url).href);
  const options = {
    formats: [{ type: "markdown" }], onlyMainContent: true, maxAge: 0, waitFor: 0, mobile: false, skipTlsVerification: false, timeout: 300000,
    parsers: [{ type: "pdf" }], location: { country: "US" }, removeBase64Images: true, blockAds: true, proxy: "auto", storeInCache: true, maxRows: 1_000_000, maxFileSize: 50 * 1024 * 1024,
  };
  const ours = { name: "scrapeline parseFile (markdown)", convert: async (doc) => (await parseFile({ name: doc.name, bytes: doc.bytes, url: `file:///bench/${doc.name}` }, options)).markdown };

  const docx = [
    { name: "small.docx", label: "small.docx 5 sections", bytes: await makeDocx(5, 1) },
    { name: "large.docx", label: "large.docx 200 sections", bytes: await makeDocx(200, 2) },
  ];
  const docxPlain = { name: "mammoth → turndown + GFM", convert: async (doc) => turndown.turndown((await mammoth.convertToHtml({ buffer: Buffer.from(doc.bytes) })).value) };
  const docxConverters = [ours, docxPlain];
  report("DOCX → markdown", docxConverters, docx, await measure(docxConverters, docx));

  const xlsx = [
    { name: "small.xlsx", label: "small.xlsx 1 sheet × 100 rows", bytes: makeXlsx(XLSX, 1, 100, 3) },
    // turndown's GFM tables grow much faster than linearly with the rows (see the scaling below): a few hundred rows a sheet keep a pass short.
    { name: "large.xlsx", label: "large.xlsx 3 sheets × 400 rows", bytes: makeXlsx(XLSX, 3, 400, 4) },
  ];
  const xlsxPlain = {
    name: "SheetJS sheet_to_html → turndown + GFM",
    convert: async (doc) => {
      const book = XLSX.read(doc.bytes, { type: "buffer", dense: true, cellDates: true });
      return book.SheetNames.map((name) => `## ${name}\n\n${turndown.turndown(XLSX.utils.sheet_to_html(book.Sheets[name]))}`).join("\n\n");
    },
  };
  const xlsxConverters = [ours, xlsxPlain];
  report("XLSX → markdown", xlsxConverters, xlsx, await measure(xlsxConverters, xlsx));
  console.log(`\n(median of ${PASSES} interleaved passes after ${WARMUP} warm-up; BENCH_PASSES and BENCH_WARMUP change them)`);

  // How each path grows with the rows of one sheet: one timed conversion each, after the passes above warmed both up.
  console.log("\nXLSX scaling, one sheet × 8 columns, one conversion each:");
  for (const rows of (process.env.BENCH_SCALING_ROWS ?? "250,500,1000").split(",").map(Number)) {
    const doc = { name: `rows-${rows}.xlsx`, bytes: makeXlsx(XLSX, 1, rows, rows) };
    const [a, b] = await measureOnce([ours, xlsxPlain], doc);
    console.log(`  ${String(rows).padStart(5)} rows: scrapeline ${a.toFixed(0).padStart(6)} ms, SheetJS → turndown ${b.toFixed(0).padStart(7)} ms (${(b / a).toFixed(1)}×)`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await run();
