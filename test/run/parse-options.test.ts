import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPipelineFile, type RunEvent } from "../../src/app/index.js";
import { FakeLlm } from "../helpers/llm-server.js";
import { load } from "../pipeline/helpers.js";
import { pipeline, readDocuments, workdir } from "./helpers.js";

const llm = new FakeLlm();
beforeAll(async () => void (await llm.start()));
afterAll(async () => llm.stop());

function project(steps: string, files: Record<string, string> = {}) {
  const dir = workdir();
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  const file = join(dir, "p.yaml");
  writeFileSync(file, pipeline(steps));
  return { dir, file, db: join(dir, "test.db") };
}

describe("a parse step's options", () => {
  it("refuses options that need a browser at load time, each at its file:line:col", async () => {
    const p = project(`  - id: files\n    parse:\n      files: [a.csv]\n      waitFor: 100\n      mobile: true\n      actions: [{ type: wait, milliseconds: 10 }]\n      location: { country: DE }\n      formats: [markdown, "screenshot@fullPage", screenshot]\n`);
    const result = await runPipelineFile(p.file, { db: p.db });
    expect(result.ok).toBe(false);
    const found = !result.ok ? result.diagnostics.filter((d) => d.severity === "error").map((d) => [d.code, d.file, d.line, d.column, d.message]) : [];
    expect(found).toEqual([
      ["browser-option-in-parse", p.file, 8, 7, "waitFor needs a page in a browser; a parse step converts files and cannot use it"],
      ["browser-option-in-parse", p.file, 9, 7, "mobile needs a page in a browser; a parse step converts files and cannot use it"],
      ["browser-option-in-parse", p.file, 10, 7, "actions needs a page in a browser; a parse step converts files and cannot use it"],
      ["browser-option-in-parse", p.file, 11, 7, "location needs a page in a browser; a parse step converts files and cannot use it"],
      ["format-not-for-files", p.file, 12, 27, "format screenshot@fullPage needs a page in a browser; a parse step cannot make it"],
      ["format-not-for-files", p.file, 12, 50, "format screenshot needs a page in a browser; a parse step cannot make it"],
    ]);
  });

  it("takes changeTracking in formats (files are compared run to run)", async () => {
    const p = project(`  - id: files\n    parse: { files: [a.csv], formats: [markdown, { type: changeTracking }] }\n`, { "a.csv": "a,b\n1,2\n" });
    const result = await runPipelineFile(p.file, { db: p.db });
    expect(result.ok && result.status).toBe("succeeded");
  });

  it("applies timeout per file on the local engine: a json format whose model does not answer fails as a timeout, not retried, the other files stored", async () => {
    llm.answer({ hang: true });
    llm.fallback = () => ({ content: JSON.stringify({ total: 3 }) });
    const p = project(
      `  - id: files\n    continueOnError: true\n    parse: { files: [slow.csv], timeout: 1000, formats: [markdown, { type: json, prompt: "the total" }] }\n  - id: quick\n    parse: { files: [quick.csv] }\n`,
      { "slow.csv": "item,qty\nwidget,3\n", "quick.csv": "a\n1\n" },
    );
    const events: RunEvent[] = [];
    const env = { SCRAPELINE_LLM_BASE_URL: llm.url, SCRAPELINE_LLM_MODEL: "m", SCRAPELINE_LLM_API_KEY: "sk-x" };
    const result = await runPipelineFile(p.file, { db: p.db, env, onEvent: (e) => events.push(e), allowPrivateNetwork: true });
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    const failed = events.filter((e) => e.type === "document-failed");
    expect(failed).toEqual([expect.objectContaining({ stepId: "files", kind: "timeout", reason: "slow.csv was not converted within its timeout of 1000 ms" })]);
    expect(events.some((e) => e.type === "document-retried")).toBe(false);
    expect(llm.requests).toHaveLength(1);
    expect(readDocuments(p.db, result.runId).map((d) => d.document.metadata.sourceFile)).toEqual(["quick.csv"]);
  });

  it("warns that maxRows does nothing on the firecrawl engine, at its line", () => {
    const yaml = (engine: string) => `version: 1\nname: t\n${engine}steps:\n  - id: files\n    parse:\n      files: [a.xlsx]\n      maxRows: 50\n`;
    const remote = load(yaml(`engine: { kind: firecrawl, baseUrl: "https://api.example.com" }\n`));
    expect(remote.diagnostics).toEqual([expect.objectContaining({ severity: "warning", code: "local-only-option", line: 8, column: 16 })]);
    expect(load(yaml("")).diagnostics).toEqual([]);
    expect(load(yaml("engine: firecrawl\n")).diagnostics.map((d) => d.code)).toEqual(["local-only-option"]);
  });
});
