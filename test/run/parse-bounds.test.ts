import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runPipelineFile, type RunEvent } from "../../src/app/index.js";
import { makePdf } from "../engines/pdf/make-pdf.js";
import { deepDocx, longStringXlsx, paragraphsDocx } from "../engines/parse/bombs.js";
import { pipeline, readDocuments, workdir } from "./helpers.js";

describe("parse step: files over a limit or unreadable", () => {
  it("each fails alone with its cause, without retries; the step's other files and the next step go on", { timeout: 180_000 }, async () => {
    const dir = workdir();
    const pdf = makePdf([["one"]]);
    const files: Record<string, Uint8Array | string> = {
      "in/bomb.docx": paragraphsDocx(80),
      "in/cell.xlsx": longStringXlsx(2),
      "in/deep.docx": deepDocx(100_000),
      "in/empty.pdf": "",
      "in/cut.pdf": pdf.subarray(0, Math.floor(pdf.length / 3)),
      "in/page.pdf": "<!doctype html><html><body><p>hi</p></body></html>",
      "in/fine.csv": "a,b\n1,2\n",
      "next.csv": "c,d\n3,4\n",
    };
    mkdirSync(join(dir, "in"));
    for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
    const file = join(dir, "p.yaml");
    writeFileSync(file, pipeline(`  - id: files\n    continueOnError: true\n    parse: { files: ["in/*"] }\n  - id: next\n    parse: { files: [next.csv] }\n`));
    const events: RunEvent[] = [];
    const result = await runPipelineFile(file, { db: join(dir, "test.db"), onEvent: (e) => events.push(e) });
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    expect(result.status).toBe("failed");
    expect(readDocuments(join(dir, "test.db"), result.runId).map((d) => d.document.metadata.sourceFile)).toEqual(["in/fine.csv", "next.csv"]);
    const failed = events.filter((e): e is Extract<RunEvent, { type: "document-failed" }> => e.type === "document-failed");
    const byFile = Object.fromEntries(failed.map((e) => [e.url.split("/in/")[1], { kind: e.kind, reason: e.reason }]));
    expect(byFile).toEqual({
      "bomb.docx": { kind: "too-large", reason: "in/bomb.docx: its part word/document.xml inflates to more than 64 MB (the limit of one part): refused as a possible zip bomb" },
      "cell.xlsx": { kind: "too-large", reason: "in/cell.xlsx: xl/sharedStrings.xml holds a text longer than 1048576 characters (the limit of one string or cell): refused" },
      "deep.docx": { kind: "bad-content", reason: "in/deep.docx: word/document.xml nests elements more than 256 deep (the limit of a parsed file): refused" },
      "empty.pdf": { kind: "bad-content", reason: "in/empty.pdf is empty" },
      "cut.pdf": { kind: "bad-content", reason: expect.stringMatching(/^in\/cut\.pdf: cannot read PDF/) },
      "page.pdf": { kind: "bad-content", reason: "in/page.pdf is named .pdf but its content is HTML: refused as mislabelled (rename it to match its content)" },
    });
    expect(events.filter((e) => e.type === "document-retried")).toEqual([]);
  });
});
