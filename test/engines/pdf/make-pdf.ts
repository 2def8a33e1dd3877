/**
 * A tiny hand-written PDF 1.4 writer for tests: one Helvetica font, one text line per `BT … ET`
 * block, an Info dictionary and a correct cross-reference table. Text must be Latin-1.
 */

/** One line of text drawn at (x, y) in points; y defaults to below the previous line. */
export interface PdfLine {
  text: string;
  /** Font size in points; 12 by default. */
  size?: number;
  x?: number;
  y?: number;
}

/** A page: its lines top to bottom. A string is a 12 pt line; an empty string leaves a blank line. */
export type PdfPage = (string | PdfLine)[];

/** Info dictionary entries and optional extras for building odd files. */
export interface MakePdfOptions {
  title?: string;
  author?: string;
  subject?: string;
  /** Adds a standard-security /Encrypt dictionary whose keys match no password, so a password is needed. */
  encrypted?: boolean;
}

const TOP = 760;
const LEFT = 72;

/** WinAnsiEncoding codes (as octal escapes) of the few non-Latin-1 characters tests use. */
const WIN_ANSI: Record<string, string> = { "•": "\\225", "–": "\\226", "—": "\\227" };

/** Escapes a string for a PDF literal `( … )`. */
function literal(text: string): string {
  return "(" + text.replace(/[\\()]/g, (c) => "\\" + c).replace(/[•–—]/g, (c) => WIN_ANSI[c]!) + ")";
}

/** The content stream drawing a page's lines. */
function contentStream(page: PdfPage): string {
  const ops: string[] = [];
  let y = TOP;
  let previousSize = 12;
  for (const entry of page) {
    const line: PdfLine = typeof entry === "string" ? { text: entry } : entry;
    const size = line.size ?? 12;
    if (line.y !== undefined) y = line.y;
    else if (ops.length > 0 || line.text === "") y -= Math.max(size, previousSize) * 1.25;
    previousSize = size;
    if (line.text === "") continue;
    ops.push(`BT /F1 ${size} Tf ${line.x ?? LEFT} ${y.toFixed(2)} Td ${literal(line.text)} Tj ET`);
  }
  return ops.join("\n") + "\n";
}

/** A valid PDF 1.4 file with one page per entry of `pages`. */
export function makePdf(pages: PdfPage[], options: MakePdfOptions = {}): Uint8Array {
  const objects: string[] = [];
  const add = (body: string): number => objects.push(body);
  const catalog = add("");
  const pagesObject = add("");
  const font = add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
  const infoEntries = [
    ["Title", options.title],
    ["Author", options.author],
    ["Subject", options.subject],
    ["Producer", "make-pdf test helper"],
    ["CreationDate", "D:20240102030405Z"],
  ].filter((entry): entry is [string, string] => entry[1] !== undefined);
  const info = add("<< " + infoEntries.map(([key, value]) => `/${key} ${literal(value)}`).join(" ") + " >>");
  const kids: number[] = [];
  for (const page of pages) {
    const stream = contentStream(page);
    const content = add(`<< /Length ${Buffer.byteLength(stream, "latin1")} >>\nstream\n${stream}endstream`);
    kids.push(
      add(
        `<< /Type /Page /Parent ${pagesObject} 0 R /MediaBox [0 0 612 792] ` +
          `/Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${content} 0 R >>`,
      ),
    );
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesObject} 0 R >>`;
  objects[pagesObject - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(" ")}] /Count ${kids.length} >>`;
  let encrypt = "";
  if (options.encrypted) {
    const hex = (byte: string) => "<" + byte.repeat(32) + ">";
    const dict = add(`<< /Filter /Standard /V 1 /R 2 /Length 40 /P -4 /O ${hex("ab")} /U ${hex("cd")} >>`);
    encrypt = ` /Encrypt ${dict} 0 R /ID [<00112233445566778899aabbccddeeff> <00112233445566778899aabbccddeeff>]`;
  }

  let out = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, "latin1"));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R /Info ${info} 0 R${encrypt} >>\n`;
  out += `startxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, "latin1"));
}
