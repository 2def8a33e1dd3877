import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeSearxng, webResults } from "../helpers/searxng.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { pipeline, readDocuments, readStepResult, runYaml, workdir } from "./helpers.js";

const site = new FixtureSite();
const searx = new FakeSearxng({ perPage: 10 });

beforeAll(async () => {
  for (let i = 1; i <= 4; i++) site.page(`/r${i}`, htmlPage(`Result page ${i}`, `<p>Body of result ${i}.</p>`));
  await site.start();
  await searx.start();
  searx.options.results = { general: webResults(site.url, 4) };
});
afterAll(async () => {
  await site.stop();
  await searx.stop();
});

const yaml = (query: string) => pipeline(`  - id: find\n    search: { query: "${query}", limit: 4, scrapeOptions: { formats: [markdown] } }\n`, "concurrency: 3\n");

describe("record and replay of a search step", () => {
  it("answers the search and its scraped results from the fixture with neither SearXNG nor the site running", async () => {
    const fixture = join(workdir(), "fixture");
    const live = await runYaml(yaml("widgets"), { env: { SCRAPELINE_SEARXNG_URL: searx.url }, record: fixture });
    if (!live.result.ok) throw new Error(JSON.stringify(live.result.diagnostics));
    expect(live.result.status).toBe("succeeded");
    expect(readDocuments(live.db, live.result.runId, "find")).toHaveLength(4);
    await searx.stop();
    await site.stop();

    const replay = await runYaml(yaml("widgets"), { env: {}, replay: fixture });
    if (!replay.result.ok) throw new Error(JSON.stringify(replay.result.diagnostics));
    expect(replay.result.status).toBe("succeeded");
    expect(readStepResult(replay.db, replay.result.runId, "find")).toEqual(readStepResult(live.db, live.result.runId, "find"));
    const documents = (db: string, runId: number) => Object.fromEntries(readDocuments(db, runId, "find").map((p) => [p.url, JSON.stringify(p.document)]));
    expect(documents(replay.db, replay.result.runId)).toEqual(documents(live.db, live.result.runId));

    const other = await runYaml(yaml("gadgets"), { env: {}, replay: fixture });
    if (!other.result.ok) throw new Error(JSON.stringify(other.result.diagnostics));
    expect(other.result.status).toBe("failed");
    expect(JSON.stringify(other.events)).toContain('not-recorded: the search \\"gadgets\\"');
  });
});
