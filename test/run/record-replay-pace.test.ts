import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { SqliteStore } from "../../src/store/index.js";
import { pipeline, readDocuments, runYaml, workdir } from "./helpers.js";

const site = new FixtureSite();
const PAGES = 4;
/** An hour between pages: a replay that waited it would never end within the test's time. */
const HOUR = 3600;

beforeAll(async () => {
  site.route("/robots.txt", (_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end(`User-agent: *\nCrawl-delay: ${HOUR}\n`));
  site.page("/docs/", htmlPage("Docs", Array.from({ length: PAGES }, (_, i) => `<a href="/docs/p${i}">Page ${i}</a>`).join(" ")));
  for (let i = 0; i < PAGES; i++) site.page(`/docs/p${i}`, htmlPage(`Page ${i}`, `<p>Body of page ${i}.</p>`));
  await site.start();
});
afterAll(() => site.stop());

const crawl = (delay: string) => pipeline(`  - id: site\n    crawl: { url: "${site.url}/docs/", sitemap: skip${delay} }\n`, "concurrency: 4\nperHostConcurrency: 1\n");

describe("a replay opens no socket, so it spares no site", () => {
  it("waits neither the crawl's delay nor robots.txt's between pages, and keeps the run's plan as the file says", async () => {
    const fixture = join(workdir(), "fixture");
    // Recorded without waiting (a delay of 0 overrides robots.txt's).
    const recorded = await runYaml(crawl(", delay: 0"), { record: fixture });
    if (!recorded.result.ok) throw new Error(JSON.stringify(recorded.result.diagnostics));
    expect(readDocuments(recorded.db, recorded.result.runId)).toHaveLength(PAGES + 1);
    await site.stop();

    for (const delay of ["", `, delay: ${HOUR}`]) {
      const { result, db } = await runYaml(crawl(delay), { replay: fixture });
      if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
      expect(result.status).toBe("succeeded");
      expect(readDocuments(db, result.runId).map((p) => p.url).sort()).toEqual([`${site.url}/docs/`, ...Array.from({ length: PAGES }, (_, i) => `${site.url}/docs/p${i}`)].sort());
      const store = new SqliteStore(db);
      const plan = JSON.parse(store.runPlan(result.runId)!) as { perHostConcurrency: number; steps: Array<{ body: { delay?: number } }> };
      store.close();
      expect(plan.perHostConcurrency).toBe(1);
      expect(plan.steps[0]!.body.delay).toBe(delay === "" ? undefined : HOUR);
    }
  });
});
