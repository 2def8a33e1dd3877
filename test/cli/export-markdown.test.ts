import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { runYaml } from "../run/helpers.js";
import { cliInProcess } from "./child.js";

const site = new FixtureSite();
let db = "";

beforeAll(async () => {
  site.page("/docs", htmlPage("Docs", "<p>docs</p>"));
  await site.start();
  // The same page in two steps: each export file must say which step it came from.
  const { result, db: path } = await runYaml(`version: 1\nname: twice\nsteps:\n  - id: first\n    scrape: { url: "${site.url}/docs" }\n  - id: second\n    scrape: { url: "${site.url}/docs", formats: [markdown, html] }\n`);
  if (!result.ok) throw new Error("invalid fixture pipeline");
  db = path;
});
afterAll(() => site.stop());

describe("export --format markdown", () => {
  it("names each file after its step and page, so steps do not collide", async () => {
    const out = mkdtempSync(join(tmpdir(), "scrapeline-md-"));
    const r = await cliInProcess(["export", "--db", db, "--format", "markdown", "--out", out]);
    expect(r.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(["first--127.0.0.1_docs.md", "second--127.0.0.1_docs.md"]);
    expect(readFileSync(join(out, "second--127.0.0.1_docs.md"), "utf8")).toContain('step: "second"');
  });
});
