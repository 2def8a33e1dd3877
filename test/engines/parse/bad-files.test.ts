import * as XLSX from "@e965/xlsx";
import { strToU8, zipSync } from "fflate";
import { describe, expect, test } from "vitest";
import { isScrapelineError } from "../../../src/core/index.js";
import { DEFAULT_PARSE_LIMITS, parseFile } from "../../../src/engines/local/parse/index.js";
import { makePdf } from "../pdf/make-pdf.js";
import { makeDocx, makeOdt, makeWorkbook } from "./fixtures.js";
import { parseOptions } from "./options.js";

async function failure(name: string, bytes: Uint8Array, limits = DEFAULT_PARSE_LIMITS, overrides = {}): Promise<{ kind: string; message: string }> {
  try {
    await parseFile({ name, bytes, url: `file:///docs/${name}` }, parseOptions(overrides), undefined, limits);
  } catch (error) {
    if (!isScrapelineError(error)) throw error;
    return { kind: error.kind, message: error.message };
  }
  throw new Error(`${name} parsed, but should have failed`);
}

function compound(streams: Record<string, Uint8Array>): Uint8Array {
  const cfb = XLSX.CFB.utils.cfb_new();
  for (const [name, data] of Object.entries(streams)) XLSX.CFB.utils.cfb_add(cfb, `/${name}`, data);
  return new Uint8Array(XLSX.CFB.write(cfb, { type: "buffer" }) as Buffer);
}

/** A zip whose one entry inflates to `size` zero bytes; `lie` patches the sizes its headers declare. */
function zeros(size: number, lie?: number): Uint8Array {
  const zip = zipSync({ "word/document.xml": new Uint8Array(size), "[Content_Types].xml": strToU8("<Types/>") });
  if (lie !== undefined) {
    const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
    view.setUint32(22, lie, true);
    for (let i = zip.length - 46; i >= 0; i--) if (view.getUint32(i, true) === 0x02014b50) view.setUint32(i + 24, lie, true);
  }
  return zip;
}

describe("bad files fail that document with a clear error", () => {
  test("a zip bomb is refused by its declared size, before inflating", async () => {
    const error = await failure("bomb.docx", zeros(4 * 1024 * 1024), { ...DEFAULT_PARSE_LIMITS, maxInflatedBytes: 1024 * 1024 });
    expect(error).toEqual({ kind: "too-large", message: "bomb.docx inflates to more than 1 MB: refused as a possible zip bomb" });
  });

  test("a zip bomb whose headers lie about its size is stopped while inflating", async () => {
    const error = await failure("liar.docx", zeros(4 * 1024 * 1024, 100), { ...DEFAULT_PARSE_LIMITS, maxInflatedBytes: 1024 * 1024 });
    expect(error.kind).toBe("too-large");
    expect(error.message).toContain("refused as a possible zip bomb");
  });

  test("a truncated DOCX is a damaged archive", async () => {
    const docx = await makeDocx();
    const error = await failure("cut.docx", docx.subarray(0, Math.floor(docx.length / 2)));
    expect(error.kind).toBe("bad-content");
    expect(error.message).toMatch(/^cut\.docx is a damaged or truncated zip archive/);
  });

  test("password-protected files: encrypted OOXML, ODF and PDF", async () => {
    const ooxml = compound({ EncryptionInfo: new Uint8Array(64), EncryptedPackage: new Uint8Array(64) });
    expect(await failure("secret.xlsx", ooxml)).toEqual({ kind: "bad-content", message: "secret.xlsx is password-protected (encrypted); remove the password and parse it again" });
    expect((await failure("secret.odt", makeOdt({ encrypted: true }))).message).toBe("secret.odt is password-protected (encrypted); remove the password and parse it again");
    expect((await failure("secret.pdf", makePdf([["x"]], { encrypted: true }))).message).toBe("secret.pdf: cannot read PDF: it is encrypted and needs a password");
  });

  test("legacy .doc and .ppt are named, with the accepted formats", async () => {
    const error = await failure("old.doc", compound({ WordDocument: new Uint8Array(512) }));
    expect(error.kind).toBe("unsupported");
    expect(error.message).toMatch(/^old\.doc is Word 97-2003 \(\.doc\), which has no reader here; .*accepted: HTML\/XHTML, PDF, DOCX\/DOCM, ODT, RTF, EPUB, PPTX, ODP, XLSX\/XLSM, XLS, ODS and CSV$/);
    expect((await failure("old.ppt", compound({ "PowerPoint Document": new Uint8Array(512) }))).message).toMatch(/^old\.ppt is PowerPoint 97-2003/);
  });

  test("a mislabelled file: content and extension disagree", async () => {
    expect(await failure("report.docx", new TextEncoder().encode("a,b\n1,2\n"))).toEqual({ kind: "bad-content", message: "report.docx is named .docx but its content is plain text: refused as mislabelled (rename it to match its content)" });
    expect((await failure("sheet.xlsx", await makeDocx())).message).toBe("sheet.xlsx is named .xlsx but its content is DOCX: refused as mislabelled (rename it to match its content)");
  });

  test("a file over maxFileSize, an empty file, unknown binary, an unknown zip", async () => {
    expect(await failure("big.csv", new Uint8Array(2048).fill(65), { ...DEFAULT_PARSE_LIMITS, maxBytes: 1024 })).toEqual({ kind: "too-large", message: "big.csv is 2048 bytes, over the 1024 bytes limit of a parsed file" });
    expect((await failure("empty.pdf", new Uint8Array())).message).toBe("empty.pdf is empty");
    expect((await failure("blob", Uint8Array.of(0, 1, 2, 3, 0, 9))).message).toMatch(/^blob is not a document this tool reads/);
    expect((await failure("x.zip", zipSync({ "a.txt": strToU8("hi") }))).message).toMatch(/^x\.zip is a zip archive but not a document this tool reads/);
  });

  test("the cell limit bounds a spreadsheet", async () => {
    const rows = Array.from({ length: 30 }, (_, r) => Array.from({ length: 10 }, (_, c) => r * c));
    const error = await failure("wide.xlsx", makeWorkbook("xlsx", { S: rows }), { ...DEFAULT_PARSE_LIMITS, maxCells: 100 });
    expect(error).toEqual({ kind: "too-large", message: "wide.xlsx has more than 100 cells in its first 1000 rows per sheet: refused (lower maxRows, or split the file)" });
  });

  test("a screenshot format is refused: a document has no page to shoot", async () => {
    expect(await failure("a.csv", new TextEncoder().encode("a,b\n"), DEFAULT_PARSE_LIMITS, { formats: [{ type: "screenshot", fullPage: false }] })).toEqual({ kind: "invalid-input", message: "format screenshot cannot be made from a document file (it needs a page in a browser)" });
  });
});
