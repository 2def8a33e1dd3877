import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportRun, runPipelineFile } from "../../../src/app/index.js";
import { FixtureSite, htmlPage } from "../../helpers/site.js";

const site = new FixtureSite();

beforeAll(async () => {
  site.page("/shot", htmlPage("Shot", "<p>A page worth a picture.</p>"));
  await site.start();
});

afterAll(async () => {
  await site.stop();
});

describe("a run with screenshots", () => {
  it("stores them with the page, and the markdown export writes them as files beside it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "scrapeline-shots-"));
    const file = join(dir, "shots.yaml");
    const db = join(dir, "db.sqlite");
    writeFileSync(
      file,
      `version: 1\nname: shots\nallowPrivateNetwork: true\nsteps:\n  - id: pages\n    scrape:\n      url: "${site.url}/shot"\n      formats: [markdown, { type: screenshot, viewport: { width: 400, height: 300 } }]\n      actions: [{ type: pdf, format: A5 }]\n`,
    );
    const result = await runPipelineFile(file, { db });
    expect(result.ok && result.status).toBe("succeeded");

    const out = join(dir, "pages");
    await exportRun({ db, format: "markdown", out });
    const files = readdirSync(out).sort();
    const page = files.find((f) => f.endsWith(".md"))!;
    const base = page.replace(/\.md$/, "");
    expect(files).toEqual([`${base}-pdf-1.pdf`, page, `${base}.png`]);
    expect(readFileSync(join(out, page), "utf8")).toContain(`screenshot: "${base}.png"`);
    expect(readFileSync(join(out, `${base}.png`)).subarray(1, 4).toString()).toBe("PNG");
    expect(readFileSync(join(out, `${base}-pdf-1.pdf`)).subarray(0, 5).toString()).toBe("%PDF-");
  });
});
