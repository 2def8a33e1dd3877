// Parse memory bounds: the peak memory of converting each of two zip bombs (a DOCX whose
// word/document.xml inflates to 200 MB; an XLSX holding one 200 MB shared string), a DOCX that
// passes every cap but outgrows the heap limit, and ten ordinary office files, each converted the
// way the local engine does (its own thread, parseInThread) in a fresh Node process whose peak RSS
// is read at the end (Linux's VmHWM: getrusage's maxrss would carry the parent's over exec). What
// a conversion adds to the process (peak RSS less the RSS before it) is compared with the
// documented bound of one file, and a verdict printed. Everything is generated here; nothing is
// read from disk. Run `npm run build` first.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { makeDocx } from "./parse.mjs";
import { random, sentence } from "./random-text.mjs";

/** The documented bound of one conversion (README, Parsing documents): 512 MB of heap, with the file, one inflating part and the thread itself. */
const BOUND_MB = 640;
const PARSE = new URL("../dist/engines/local/parse/index.js", import.meta.url).href;

/** A zip written a chunk at a time: `parts` maps a name to bytes or to a writer of chunks. */
async function streamedZip(parts) {
  const { Zip, ZipDeflate } = await import("fflate");
  const chunks = [];
  const zip = new Zip((error, data) => {
    if (error) throw error;
    chunks.push(data);
  });
  for (const [name, content] of Object.entries(parts)) {
    const entry = new ZipDeflate(name, { level: 6 });
    zip.add(entry);
    if (content instanceof Uint8Array) entry.push(content, true);
    else {
      content((chunk) => entry.push(chunk));
      entry.push(new Uint8Array(0), true);
    }
  }
  zip.end();
  return Buffer.concat(chunks);
}

const text = (value) => new TextEncoder().encode(value);

/** `megabytes` MB of `block` repeated. */
const repeated = (block, megabytes) => (push) => {
  const bytes = text(block.repeat(Math.floor((1024 * 1024) / block.length)));
  for (let written = 0; written < megabytes * 1024 * 1024; written += bytes.length) push(bytes);
};

/** A DOCX whose word/document.xml is `megabytes` MB of short paragraphs. */
function paragraphsDocx(megabytes) {
  return streamedZip({
    "[Content_Types].xml": text(`<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`),
    "_rels/.rels": text(`<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`),
    "word/document.xml": (push) => {
      push(text(`<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`));
      repeated("<w:p><w:r><w:t>Lorem ipsum dolor sit amet.</w:t></w:r></w:p>", megabytes)(push);
      push(text("</w:body></w:document>"));
    },
  });
}

/** An XLSX whose one shared string (A2) is `megabytes` MB long. */
async function longStringXlsx(XLSX, megabytes) {
  const { unzipSync } = await import("fflate");
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([["name"], ["x"]]), "S");
  const parts = unzipSync(new Uint8Array(XLSX.write(book, { type: "buffer", bookType: "xlsx", bookSST: true })));
  parts["xl/sharedStrings.xml"] = (push) => {
    push(text(`<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="2" uniqueCount="2"><si><t>name</t></si><si><t>`));
    repeated("A", megabytes)(push);
    push(text("</t></si></sst>"));
  };
  return streamedZip(parts);
}

/** A workbook of `sheets` × `rows` × 8 columns, in `bookType` (xlsx, xls, ods, csv). */
function workbook(XLSX, bookType, sheets, rows, seed) {
  const rnd = random(seed);
  const book = XLSX.utils.book_new();
  for (let s = 0; s < sheets; s++) {
    const data = [["id", "name", "plan", "region", "seats", "price", "total", "renewal"]];
    for (let r = 0; r < rows; r++) {
      const seats = 1 + Math.floor(rnd() * 500);
      const price = Math.round(rnd() * 10000) / 100;
      data.push([r + 1, sentence(rnd, 2), sentence(rnd, 1), sentence(rnd, 1), seats, price, Math.round(seats * price * 100) / 100, `2026-0${1 + Math.floor(rnd() * 9)}-1${Math.floor(rnd() * 9)}`]);
    }
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(data), `Sheet ${s + 1}`);
  }
  return Buffer.from(XLSX.write(book, { type: bookType === "csv" ? "string" : "buffer", bookType }));
}

/** A PDF 1.4 of `pages` pages of 40 lines each (Helvetica), with a correct cross-reference table. */
function pdf(pages, seed) {
  const rnd = random(seed);
  const objects = ["<< /Type /Catalog /Pages 2 0 R >>", "", "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"];
  const kids = [];
  for (let p = 0; p < pages; p++) {
    const lines = Array.from({ length: 40 }, (_, i) => `BT /F1 11 Tf 72 ${760 - i * 17} Td (${sentence(rnd, 10)}) Tj ET`).join("\n");
    objects.push(`<< /Length ${lines.length} >>\nstream\n${lines}\nendstream`);
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${objects.length} 0 R >>`);
    kids.push(`${objects.length} 0 R`);
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.join(" ")}] /Count ${pages} >>`;
  let out = "%PDF-1.4\n";
  const offsets = objects.map((body, i) => {
    const at = out.length;
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return at;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

function html(sections, seed) {
  const rnd = random(seed);
  const body = Array.from({ length: sections }, (_, s) => `<h2>Section ${s}</h2>${Array.from({ length: 6 }, () => `<p>${sentence(rnd, 40)} <a href="/x/${s}">${sentence(rnd, 2)}</a></p>`).join("")}<ul>${Array.from({ length: 5 }, () => `<li>${sentence(rnd, 6)}</li>`).join("")}</ul>`).join("\n");
  return Buffer.from(`<!doctype html><html><head><title>Handbook</title></head><body><main><h1>Handbook</h1>${body}</main></body></html>`);
}

function rtf(paragraphs, seed) {
  const rnd = random(seed);
  return Buffer.from(`{\\rtf1\\ansi{\\fonttbl{\\f0 Helvetica;}}{\\info{\\title Notes}}\\f0 ${Array.from({ length: paragraphs }, (_, i) => `{\\b Point ${i + 1}.} ${sentence(rnd, 30)}\\par`).join("\n")}}`, "latin1");
}

/** The files: [name, what it is, bytes]. */
async function files() {
  const XLSX = await import("@e965/xlsx");
  return [
    ["bomb.docx", "document.xml inflating to 200 MB", await paragraphsDocx(200)],
    ["bomb.xlsx", "one shared string of 200 MB", await longStringXlsx(XLSX, 200)],
    ["dense.docx", "12 MB document.xml: under every cap, over the heap", await paragraphsDocx(12)],
    ["small.docx", "report, 5 sections", await makeDocx(5, 1)],
    ["large.docx", "report, 200 sections", await makeDocx(200, 2)],
    ["small.xlsx", "1 sheet × 100 rows", workbook(XLSX, "xlsx", 1, 100, 3)],
    ["large.xlsx", "3 sheets × 20,000 rows", workbook(XLSX, "xlsx", 3, 20_000, 4)],
    ["book.xls", "2 sheets × 5,000 rows", workbook(XLSX, "biff8", 2, 5000, 5)],
    ["book.ods", "2 sheets × 5,000 rows", workbook(XLSX, "ods", 2, 5000, 6)],
    ["table.csv", "100,000 rows", Buffer.from(workbook(XLSX, "csv", 1, 100_000, 7))],
    ["paper.pdf", "60 pages", pdf(60, 8)],
    ["handbook.html", "400 sections", html(400, 9)],
    ["notes.rtf", "2,000 paragraphs", rtf(2000, 10)],
  ];
}

/** The process's peak resident memory in bytes, since it started (this program, not its parent). */
function peakRss() {
  const status = readFileSync("/proc/self/status", "utf8");
  const kb = /^VmHWM:\s+(\d+) kB/m.exec(status)?.[1];
  if (kb === undefined) throw new Error("no VmHWM in /proc/self/status: this benchmark reads Linux's peak RSS");
  return Number(kb) * 1024;
}

/** In the child: converts one file in its thread, then reports RSS before and at the peak. */
async function child(path, name) {
  const { parseInThread } = await import(PARSE);
  const bytes = readFileSync(path);
  const options = { formats: [{ type: "markdown" }], onlyMainContent: true, timeout: 600000, parsers: [{ type: "pdf" }], removeBase64Images: true, blockAds: true, maxRows: 1000, maxFileSize: 50 * 1024 * 1024 };
  const before = process.memoryUsage().rss;
  const start = process.hrtime.bigint();
  let outcome;
  try {
    const parsed = await parseInThread({ name, bytes, url: `file:///bench/${name}` }, options);
    outcome = `converted (${parsed.markdown.length} characters of markdown)`;
  } catch (error) {
    outcome = `refused: ${error.message}`;
  }
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  process.stdout.write(JSON.stringify({ before, peak: peakRss(), ms, outcome }));
  process.exit(0);
}

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), "scrapeline-bench-bounds-"));
  const mb = (bytes) => (bytes / 1024 / 1024).toFixed(0);
  let worst = 0;
  try {
    console.log(`Each file converted in a fresh process, in its own thread (512 MB heap); bound of one conversion: ${BOUND_MB} MB over the process's RSS before it.\n`);
    console.log(`${"file".padEnd(14)} ${"size".padStart(9)}  ${"RSS before".padStart(10)} ${"peak".padStart(6)} ${"added".padStart(6)} ${"time".padStart(8)}  outcome`);
    for (const [name, what, bytes] of await files()) {
      const path = join(dir, name);
      writeFileSync(path, bytes);
      const result = JSON.parse(execFileSync(process.execPath, [fileURLToPath(import.meta.url), "--child", path, name], { encoding: "utf8", maxBuffer: 1024 * 1024 }));
      const added = result.peak - result.before;
      worst = Math.max(worst, added);
      const size = bytes.length < 1024 * 1024 ? `${(bytes.length / 1024).toFixed(0)} KB` : `${(bytes.length / 1024 / 1024).toFixed(1)} MB`;
      console.log(`${name.padEnd(14)} ${size.padStart(9)}  ${`${mb(result.before)} MB`.padStart(10)} ${mb(result.peak).padStart(6)} ${mb(added).padStart(6)} ${`${(result.ms / 1000).toFixed(1)} s`.padStart(8)}  ${result.outcome.slice(0, 110)}  [${what}]`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const verdict = worst <= BOUND_MB * 1024 * 1024 ? "within the bound" : "OVER the bound";
  console.log(`\nverdict: the most a conversion added was ${mb(worst)} MB: ${verdict} of ${BOUND_MB} MB per file`);
}

if (process.argv[2] === "--child") await child(process.argv[3], process.argv[4]);
else if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await run();
