import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUN_WRITER_AFTER } from "../../src/app/common/store.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { pipeline, readDocuments, runYaml, workdir } from "./helpers.js";

// Well past the pages a run saves itself before its writer thread takes over.
const PAGES = RUN_WRITER_AFTER * 4;
const site = new FixtureSite();
const path = (i: number) => (i === 0 ? "/" : `/p/${i}`);

beforeAll(async () => {
  for (let i = 0; i < PAGES; i++) {
    const links = [i + 1, i + 2, Math.floor(i / 2)].filter((k) => k < PAGES).map((k) => `<a href="${path(k)}">page ${k}</a>`).join(" ");
    site.page(path(i), htmlPage(`Page ${i}`, `<p>Text of page ${i}.</p><p>${links}</p>`));
  }
  await site.start();
});
afterAll(() => site.stop());

describe("a long run commits its pages on the writer thread", () => {
  it("reports a page stored only once another connection can read it, and stores every page once", async () => {
    const dbPath = join(workdir(), "writer.db");
    let reader: Database.Database | undefined;
    const unseen: string[] = [];
    let stored = 0;
    const { result, db } = await runYaml(pipeline(`  - id: site\n    crawl: { url: "${site.url}/", sitemap: skip, limit: ${PAGES * 2} }\n`), {
      db: dbPath,
      onEvent: (event) => {
        if (event.type !== "document-stored") return;
        stored++;
        reader ??= new Database(dbPath, { readonly: true });
        const row = reader.prepare("SELECT 1 FROM documents WHERE url = ?").get(event.url);
        if (!row) unseen.push(event.url);
      },
    });
    reader?.close();
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    expect(result.status).toBe("succeeded");
    expect(stored).toBe(PAGES);
    expect(unseen).toEqual([]);
    const documents = readDocuments(db, result.runId, "site");
    expect(new Set(documents.map((d) => d.url)).size).toBe(PAGES);
    expect(documents.find((d) => d.url === `${site.url}/p/77`)?.document.markdown).toContain("Text of page 77.");
    expect(result.credits).toBe(PAGES);
  });
});
