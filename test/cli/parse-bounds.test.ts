import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makePdf } from "../engines/pdf/make-pdf.js";
import { deepDocx, longStringXlsx, paragraphsDocx } from "../engines/parse/bombs.js";
import { makeDocx } from "../engines/parse/fixtures.js";
import { cliChild, finish, workdir } from "../run/helpers.js";

describe("scrapeline parse (the built CLI): files over a limit or unreadable", () => {
  it("each fails alone with its reason on stderr, the others convert, and the command exits 1", { timeout: 180_000 }, async () => {
    const dir = workdir();
    const pdf = makePdf([["one"]]);
    const files: Record<string, Uint8Array | string> = {
      "bomb.docx": paragraphsDocx(80),
      "bomb.xlsx": longStringXlsx(80),
      "deep.docx": deepDocx(100_000),
      "empty.pdf": "",
      "page.pdf": "<!doctype html><html><body><p>hi</p></body></html>",
      "report.pdf": await makeDocx(),
      "cut.pdf": pdf.subarray(0, Math.floor(pdf.length / 3)),
      "fine.csv": "item,price\napple,2\n",
    };
    for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
    const { code, out, err } = await finish(cliChild(["parse", ...Object.keys(files).map((name) => join(dir, name))]));
    expect(code).toBe(1);
    const lines = err.trim().split("\n");
    const at = (name: string) => `error: ${join(dir, name)}`;
    expect(lines).toEqual([
      `${at("bomb.docx")}: its part word/document.xml inflates to more than 64 MB (the limit of one part): refused as a possible zip bomb`,
      `${at("bomb.xlsx")}: its part xl/sharedStrings.xml inflates to more than 64 MB (the limit of one part): refused as a possible zip bomb`,
      `${at("deep.docx")}: word/document.xml nests elements more than 256 deep (the limit of a parsed file): refused`,
      `${at("empty.pdf")} is empty`,
      `${at("page.pdf")} is named .pdf but its content is HTML: refused as mislabelled (rename it to match its content)`,
      `${at("report.pdf")} is named .pdf but its content is DOCX: refused as mislabelled (rename it to match its content)`,
      expect.stringMatching(new RegExp(`^${at("cut.pdf").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: cannot read PDF`)),
    ]);
    expect(out).toBe("| item | price |\n| --- | --- |\n| apple | 2 |\n");
  });

  it("a file that outgrows the 512 MB heap fails alone; the command lives to convert the next", { timeout: 300_000 }, async () => {
    const dir = workdir();
    writeFileSync(join(dir, "dense.docx"), paragraphsDocx(12));
    writeFileSync(join(dir, "fine.csv"), "a,b\n1,2\n");
    const { code, out, err } = await finish(cliChild(["parse", join(dir, "dense.docx"), join(dir, "fine.csv")]));
    expect(code).toBe(1);
    // A machine too busy to reach the heap limit within the file's 30 s deadline ends the thread at the deadline: either way the file fails alone.
    expect(err).toMatch(new RegExp(`^error: ${join(dir, "dense.docx")} (needs more than 512 MB of memory to convert \\(the limit of one parsed file\\): refused|was not converted within its timeout of 30000 ms)\n$`));
    expect(out).toBe("| a | b |\n| --- | --- |\n| 1 | 2 |\n");
  });
});
