import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { runPipelineFile, type RunEvent } from "../../src/app/index.js";
import { makePdf } from "../engines/pdf/make-pdf.js";
import { makeDocx, makeWorkbook } from "../engines/parse/fixtures.js";
import { pipeline, readDocuments, workdir } from "./helpers.js";

/** A directory with the pipeline file and the documents it parses. */
function project(files: Record<string, string | Uint8Array>, steps: string) {
  const dir = workdir();
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  const file = join(dir, "p.yaml");
  writeFileSync(file, pipeline(steps));
  return { dir, file, db: join(dir, "test.db") };
}

async function run(file: string, db: string) {
  const events: RunEvent[] = [];
  const result = await runPipelineFile(file, { db, onEvent: (e) => events.push(e) });
  if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
  return { result, events, docs: readDocuments(db, result.runId) };
}

describe("parse step", () => {
  it("stores each file as a document with metadata, globs expanded in sorted order, credits 1 per document and 1 per PDF page", async () => {
    const p = project(
      { "docs/b.docx": await makeDocx(), "docs/a.csv": "item,price\napple,2\n", "docs/sub/c.xlsx": makeWorkbook("xlsx", { Prices: [["a", "b"], [1, 2]] }), "reports/q3.pdf": makePdf([["one"], ["two"], ["three"]]) },
      `  - id: files\n    parse: { files: ["docs/**/*.{csv,docx,xlsx}", "reports/q3.pdf"] }\n`,
    );
    const { result, docs, events } = await run(p.file, p.db);
    expect(result.status).toBe("succeeded");
    expect(docs.map((d) => d.document.metadata.sourceFile)).toEqual(["docs/a.csv", "docs/b.docx", "docs/sub/c.xlsx", "reports/q3.pdf"]);
    const pdf = docs.find((d) => d.document.metadata.sourceFile === "reports/q3.pdf")!;
    expect(pdf.url).toBe(pathToFileURL(join(p.dir, "reports/q3.pdf")).href);
    expect(pdf.document.metadata).toMatchObject({ contentType: "application/pdf", pages: 3, creditsUsed: 3 });
    expect(typeof pdf.document.metadata.modifiedTime).toBe("string");
    expect(docs.find((d) => d.document.metadata.sourceFile === "docs/b.docx")!.document.metadata).toMatchObject({ title: "Quarterly report", author: "Ada Lovelace", creditsUsed: 1 });
    expect(docs.find((d) => d.document.metadata.sourceFile === "docs/sub/c.xlsx")!.document.metadata.sheets).toEqual(["Prices"]);
    expect(result.credits).toBe(6);
    expect(events.filter((e) => e.type === "document-stored")).toHaveLength(4);
  });

  it("tracks changes on files exactly as on pages: new, same, then changed with a diff", async () => {
    const p = project({ "prices.csv": "item,price\napple,2\n" }, `  - id: prices\n    parse: { files: [prices.csv], formats: [markdown, { type: changeTracking, modes: [git-diff] }] }\n`);
    const first = await run(p.file, p.db);
    expect(first.docs[0]!.document.changeTracking).toMatchObject({ changeStatus: "new", previousScrapeAt: null });
    const second = await run(p.file, p.db);
    expect(second.docs[0]!.document.changeTracking).toMatchObject({ changeStatus: "same" });
    writeFileSync(join(p.dir, "prices.csv"), "item,price\napple,3\n");
    const third = await run(p.file, p.db);
    const tracking = third.docs[0]!.document.changeTracking!;
    expect(tracking.changeStatus).toBe("changed");
    expect(tracking.diff?.text).toContain("-| apple | 2 |");
    expect(tracking.diff?.text).toContain("+| apple | 3 |");
  });

  it("a bad file fails alone; a glob matching nothing is a warning; a missing path is a failure", async () => {
    const p = project({ "ok.csv": "a,b\n1,2\n", "bad.docx": "not a docx" }, `  - id: files\n    continueOnError: true\n    parse: { files: [ok.csv, bad.docx, missing.pdf, "none/*.xlsx"] }\n`);
    const { result, docs, events } = await run(p.file, p.db);
    expect(result.status).toBe("failed");
    expect(docs.map((d) => d.document.metadata.sourceFile)).toEqual(["ok.csv"]);
    const failed = events.filter((e): e is Extract<RunEvent, { type: "document-failed" }> => e.type === "document-failed");
    expect(failed.map((e) => e.reason).sort()).toEqual(["bad.docx is named .docx but its content is plain text: refused as mislabelled (rename it to match its content)", "missing.pdf: no such file"]);
    expect(events).toContainEqual({ type: "step-warning", stepId: "files", message: "files: none/*.xlsx matches no file" });
  });

  it("refuses paths outside the pipeline's directory at validation, with the file's line and column", async () => {
    const p = project({}, `  - id: files\n    parse: { files: [../secret.docx] }\n`);
    const result = await runPipelineFile(p.file, { db: p.db });
    expect(result.ok).toBe(false);
    const diagnostic = !result.ok ? result.diagnostics.find((d) => d.code === "file-outside") : undefined;
    expect(diagnostic).toMatchObject({ severity: "error", line: 6, message: "../secret.docx is outside the pipeline's directory" });
  });

  it("allowOutside lets an absolute glob reach another directory; sourceFile is then the absolute path", async () => {
    const outer = workdir();
    writeFileSync(join(outer, "x.csv"), "a,b\n1,2\n");
    const p = project({}, `  - id: files\n    parse: { files: ["${join(outer, "*.csv")}"], allowOutside: true }\n`);
    const { docs } = await run(p.file, p.db);
    expect(docs).toHaveLength(1);
    expect(docs[0]!.document.metadata.sourceFile).toBe(join(outer, "x.csv"));
  });
});
