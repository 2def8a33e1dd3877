import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// The measurement bench/from-run.mjs prints, made here on a small site.
import { sizeWithAndWithout } from "../../bench/kept-pages-size.mjs";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { pipeline, readDocuments, runYaml, workdir } from "./helpers.js";

const site = new FixtureSite();
const PAGES = 20;
const RUNS = 30;

beforeAll(async () => {
  for (let i = 0; i < PAGES; i++) {
    const paragraphs = Array.from({ length: 8 }, (_, p) => `<p>Paragraph ${p} of page ${i}: ${"words of the page ".repeat(6 + ((i + p) % 4))}</p>`).join("");
    site.page(`/p${i}`, htmlPage(`Page ${i}`, `<article>${paragraphs}</article><aside>${Array.from({ length: 10 }, (_, k) => `<a href="/p${k}">Page ${k}</a>`).join(" ")}</aside>`));
  }
  await site.start();
});
afterAll(() => site.stop());

describe("the pages runs keep for --from-run", () => {
  it("cost one copy however many unchanged runs fetch them", async () => {
    const dir = workdir();
    const db = join(dir, "site.db");
    // maxAge 0: every run fetches every page, the most a run keeps.
    const yaml = pipeline(`  - id: pages\n    scrape:\n      formats: [markdown]\n      urls: ${JSON.stringify(Array.from({ length: PAGES }, (_, i) => `${site.url}/p${i}`))}\n`, "defaults: { scrapeOptions: { maxAge: 0 } }\n");
    const once = async () => {
      const { result } = await runYaml(yaml, { db });
      expect(result.ok && result.status).toBe("succeeded");
    };
    await once();
    const first = sizeWithAndWithout(db, join(dir, "first-without.db"));
    for (let r = 1; r < RUNS; r++) await once();
    const all = sizeWithAndWithout(db, join(dir, "all-without.db"));
    expect(first.withPages).toBeGreaterThan(first.withoutPages);
    // Kept pages after 30 runs cost what they cost after one (give or take a page of the file);
    // a copy per run would cost 30 times as much.
    const keptFirst = first.withPages - first.withoutPages;
    const keptAll = all.withPages - all.withoutPages;
    expect(keptAll).toBeLessThanOrEqual(keptFirst * 1.25 + 8192);
    // And 29 more unchanged runs grow the database with kept pages by less than 10 %.
    expect(all.withPages).toBeLessThan(first.withPages * 1.1);
  });

  it("are kept as well when a writer thread commits the run's pages", async () => {
    const db = join(workdir(), "site.db");
    const yaml = pipeline(`  - id: pages\n    scrape:\n      formats: [markdown]\n      urls: ${JSON.stringify(Array.from({ length: PAGES }, (_, i) => `${site.url}/p${i}`))}\n`);
    const live = await runYaml(yaml, { db, writerAfter: 1 });
    expect(live.result.ok && live.result.status).toBe("succeeded");
    const hits = [...site.hits.values()].reduce((a, b) => a + b, 0);
    const again = await runYaml(yaml, { db, writerAfter: 1, fromRun: "latest" });
    expect(again.result.ok && again.result.status).toBe("succeeded");
    expect([...site.hits.values()].reduce((a, b) => a + b, 0)).toBe(hits);
    expect(readDocuments(db, 2)).toHaveLength(PAGES);
  });
});
