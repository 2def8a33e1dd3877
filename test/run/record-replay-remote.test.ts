import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeService, json, serviceDocument } from "../helpers/fake-service.js";
import { chainSite, startServe } from "../server/helpers.js";
import { SqliteStore } from "../../src/store/index.js";
import { pipeline, readDocuments, runYaml, workdir } from "./helpers.js";
import { fixtureText } from "./fixture-packs.js";

const KEY = "fc-record-secret-4c1e9a";
const service = new FakeService();
const PAGES = ["https://docs.example/", "https://docs.example/a", "https://docs.example/b"];

beforeAll(async () => {
  service.on("POST /v2/scrape", (call, res) => {
    const url = (call.body as { url: string }).url;
    json(res, 200, { success: true, data: serviceDocument(url, `# Scraped ${url}`) });
  });
  service.on("POST /v2/crawl", (_call, res) => json(res, 200, { success: true, id: "job-7" }));
  // The job is under way at the first two looks (the second and third ask the same) and done at the third: a replay answers them in order.
  service.on("GET /v2/crawl/job-7", (_call, res, n) =>
    n <= 2
      ? json(res, 200, { success: true, status: "scraping", completed: 0, total: 3, data: [] })
      : json(res, 200, { success: true, status: "completed", completed: 3, total: 3, creditsUsed: 3, data: PAGES.map((url) => serviceDocument(url, `# ${url}`)) }),
  );
  await service.start();
});
afterAll(async () => service.stop());

const yaml = () =>
  pipeline(
    `  - id: one\n    scrape: { url: "https://shop.example/kettle" }\n  - id: site\n    crawl: { url: "https://docs.example/", limit: 3 }\n`,
    `engine: { kind: firecrawl, baseUrl: "${service.url}" }\n`,
  );


const documents = (db: string, runId: number) => readDocuments(db, runId).map((d) => ({ step: d.stepId, url: d.url, markdown: d.document.markdown }));

describe("record and replay on the firecrawl engine", () => {
  const fixture = join(workdir(), "remote");
  let recorded: ReturnType<typeof documents> = [];

  it("records the service's answers, in order, without the API key", async () => {
    const { result, db } = await runYaml(yaml(), { env: { FIRECRAWL_API_KEY: KEY }, record: fixture });
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    expect(result.status).toBe("succeeded");
    expect(service.calls.every((c) => c.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    recorded = documents(db, result.runId);
    expect(recorded.map((d) => d.url).sort()).toEqual(["https://shop.example/kettle", ...PAGES].sort());
    const index = JSON.parse(readFileSync(join(fixture, "index.json"), "utf8"));
    const answers = Object.values(index.service) as unknown[][];
    expect(answers.map((a) => a.length).sort()).toEqual([1, 1, 1, 2]);
    expect(fixtureText(fixture)).not.toContain(KEY);
  });

  it("replays with no key and the service stopped: the same documents", async () => {
    await service.stop();
    const { result, db } = await runYaml(yaml(), { env: {}, replay: fixture });
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    expect(result.status).toBe("succeeded");
    expect(documents(db, result.runId)).toEqual(recorded);
  });

  it("fails a request the fixture does not hold with not-recorded", async () => {
    const changed = yaml().replace("shop.example/kettle", "shop.example/teapot").replace("  - id: one\n", "  - id: one\n    continueOnError: true\n");
    const { result, db } = await runYaml(changed, { env: {}, replay: fixture });
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    expect(readDocuments(db, result.runId, "site")).toHaveLength(3);
    const store = new SqliteStore(db);
    try {
      expect(store.failures(result.runId)).toEqual([expect.objectContaining({ stepId: "one", kind: "not-recorded", error: expect.stringContaining("not-recorded: the service's answer to POST /v2/scrape (request ") })]);
    } finally {
      store.close();
    }
  });
});

describe("record and replay with scrapeline serve as the service", () => {
  it("records a scrape and a crawl served by serve, and replays them with serve and the site stopped", async () => {
    const site = await chainSite(3);
    const serve = await startServe({ replay: { planTokens: 1_000_000 } });
    const key = serve.keys.replay!;
    const fixture = join(workdir(), "served");
    const yaml = pipeline(`  - id: one\n    scrape: { url: "${site.url}/p/0" }\n  - id: site\n    crawl: { url: "${site.url}/", limit: 4 }\n`, `engine: { kind: firecrawl, baseUrl: "${serve.server.url}" }\n`);
    let live: ReturnType<typeof documents>;
    try {
      const { result, db } = await runYaml(yaml, { env: { FIRECRAWL_API_KEY: key }, record: fixture });
      if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
      expect(result.status).toBe("succeeded");
      live = documents(db, result.runId);
      expect(live.filter((d) => d.step === "site")).toHaveLength(4);
      expect(fixtureText(fixture)).not.toContain(key);
    } finally {
      await serve.stop();
      await site.stop();
    }
    const { result, db } = await runYaml(yaml, { env: {}, replay: fixture });
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    expect(result.status).toBe("succeeded");
    expect(documents(db, result.runId)).toEqual(live);
  });
});
