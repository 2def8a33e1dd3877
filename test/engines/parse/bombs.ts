/**
 * Files that cost far more to convert than they weigh, built in the tests (never stored): zips
 * written a megabyte at a time with fflate's streaming Zip, so the test never holds what they
 * inflate to.
 */
import * as XLSX from "@e965/xlsx";
import { strToU8, unzipSync, Zip, ZipDeflate } from "fflate";

const WORD_NS = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"`;
const DOCX_PARTS: Record<string, string> = {
  "[Content_Types].xml": `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
  "_rels/.rels": `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
};

/** A zip of `parts`; a part given as a function is written by it, a chunk at a time. */
function streamedZip(parts: Record<string, Uint8Array | ((push: (chunk: Uint8Array) => void) => void)>): Uint8Array {
  const chunks: Uint8Array[] = [];
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
  const out = new Uint8Array(chunks.reduce((sum, c) => sum + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** `count` megabytes of `block` repeated, pushed a block at a time. */
function repeated(block: string, megabytes: number): (push: (chunk: Uint8Array) => void) => void {
  const bytes = strToU8(block.repeat(Math.max(1, Math.floor(1024 * 1024 / block.length))));
  return (push) => {
    for (let written = 0; written < megabytes * 1024 * 1024; written += bytes.length) push(bytes);
  };
}

/** A DOCX whose word/document.xml is `megabytes` MB of short paragraphs (a few hundred KB zipped per 200 MB). */
export function paragraphsDocx(megabytes: number): Uint8Array {
  const parts: Parameters<typeof streamedZip>[0] = Object.fromEntries(Object.entries(DOCX_PARTS).map(([name, xml]) => [name, strToU8(xml)]));
  parts["word/document.xml"] = (push) => {
    push(strToU8(`<?xml version="1.0"?><w:document ${WORD_NS}><w:body>`));
    repeated(`<w:p><w:r><w:t>Lorem ipsum dolor sit amet.</w:t></w:r></w:p>`, megabytes)(push);
    push(strToU8(`</w:body></w:document>`));
  };
  return streamedZip(parts);
}

/** A DOCX whose body nests `depth` tables in one another. */
export function deepDocx(depth: number): Uint8Array {
  const parts: Parameters<typeof streamedZip>[0] = Object.fromEntries(Object.entries(DOCX_PARTS).map(([name, xml]) => [name, strToU8(xml)]));
  parts["word/document.xml"] = strToU8(`<?xml version="1.0"?><w:document ${WORD_NS}><w:body>${"<w:tbl><w:tr><w:tc>".repeat(depth)}<w:p><w:r><w:t>x</w:t></w:r></w:p>${"</w:tc></w:tr></w:tbl>".repeat(depth)}</w:body></w:document>`);
  return streamedZip(parts);
}

/** An XLSX whose second shared string (cell A2) is `megabytes` MB long. */
export function longStringXlsx(megabytes: number): Uint8Array {
  const workbook = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet([["name"], ["x"]]), "S");
  const parts: Parameters<typeof streamedZip>[0] = unzipSync(new Uint8Array(XLSX.write(workbook, { type: "buffer", bookType: "xlsx", bookSST: true }) as Buffer));
  parts["xl/sharedStrings.xml"] = (push) => {
    push(strToU8(`<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="2" uniqueCount="2"><si><t>name</t></si><si><t>`));
    repeated("A", megabytes)(push);
    push(strToU8(`</t></si></sst>`));
  };
  return streamedZip(parts);
}
