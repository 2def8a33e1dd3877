import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { exportRun } from "../../src/app/index.js";
import type { Document } from "../../src/core/index.js";
import { SqliteStore } from "../../src/store/index.js";

const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(3000, 7)]);
const pdf = Buffer.from("%PDF-1.4\n% a tiny stand-in\n%%EOF\n");
const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString("base64")}`;

function page(url: string): Document {
  return {
    markdown: `# ${url}`,
    screenshot: dataUrl("image/png", png),
    actions: { screenshots: [dataUrl("image/png", png)], scrapes: [], javascriptReturns: [], pdfs: [dataUrl("application/pdf", pdf)] },
    metadata: { sourceURL: url, url, statusCode: 200 },
  };
}

describe("screenshots and PDFs in the store", () => {
  const dir = mkdtempSync(join(tmpdir(), "scrapeline-assets-"));
  const db = join(dir, "a.db");

  it("keeps their bytes once, as blobs the stored document refers to", () => {
    const store = new SqliteStore(db);
    const run = store.createRun({ pipelineName: "p", pipelineFile: "p.yaml", pipelineHash: "h", planJson: "{}", engine: "local" });
    store.startStep(run.id, "s", "scrape");
    for (const url of ["https://e.com/1", "https://e.com/2"]) store.saveDocument({ runId: run.id, stepId: "s", url, fetchedAt: "2026-11-23T00:00:00Z", creditsUsed: 1, document: page(url) });
    store.finishStep(run.id, "s", "succeeded");
    const [first] = [...store.documents(run.id, "s")];
    expect(first!.document.screenshot).toMatch(/^blob:sha256:[0-9a-f]{64};type=image\/png$/);
    expect(first!.document.actions!.pdfs![0]).toMatch(/;type=application\/pdf$/);
    expect(store.asset(first!.document.screenshot!)).toEqual({ mediaType: "image/png", bytes: png });
    const pngBlobs = store.db.prepare("SELECT count(*) FROM blobs WHERE size = ? AND compression = 'none'").pluck().get(png.length);
    expect(pngBlobs).toBe(1); // two pages × two screenshots, one blob
    expect(store.asset("blob:sha256:" + "0".repeat(64) + ";type=image/png")).toBeUndefined();
    store.close();
  });

  it("exports them inline as data: URLs by default, as references on request, and as files beside markdown pages", async () => {
    let inline = "";
    await exportRun({ db, format: "jsonl", write: (t) => void (inline += t) });
    const doc = JSON.parse(inline.split("\n")[0]!) as Document;
    expect(doc.screenshot).toBe(dataUrl("image/png", png));
    expect(doc.actions!.pdfs).toEqual([dataUrl("application/pdf", pdf)]);
    let refs = "";
    await exportRun({ db, format: "json", assets: "refs", write: (t) => void (refs += t) });
    expect(JSON.parse(refs)[0].screenshot).toMatch(/^blob:sha256:/);
    const out = join(dir, "pages");
    await exportRun({ db, format: "markdown", out });
    const files = readdirSync(out).sort();
    expect(files).toEqual(["s--e.com_1-pdf-1.pdf", "s--e.com_1-screenshot-1.png", "s--e.com_1.md", "s--e.com_1.png", "s--e.com_2-pdf-1.pdf", "s--e.com_2-screenshot-1.png", "s--e.com_2.md", "s--e.com_2.png"]);
    expect(readFileSync(join(out, "s--e.com_1.png"))).toEqual(png);
    expect(readFileSync(join(out, "s--e.com_1.md"), "utf8")).toContain('screenshot: "s--e.com_1.png"');
  });
});
