import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FakeService, json } from "../helpers/fake-service.js";
import { pipeline, readDocuments, runYaml, readStepResult } from "./helpers.js";

const KEY = "fc-0123456789abcdef-secret";
const service = new FakeService();
beforeAll(async () => void (await service.start()));
afterAll(async () => service.stop());
beforeEach(() => void (service.calls.length = 0));

const remote = (steps: string) => pipeline(steps, `engine: { kind: firecrawl, baseUrl: "${service.url}" }\n`);
const env = { FIRECRAWL_API_KEY: KEY };

async function runOk(yaml: string) {
  const run = await runYaml(yaml, { env });
  if (!run.result.ok) throw new Error(JSON.stringify(run.result.diagnostics));
  return { ...run, result: run.result };
}

const stepResult = (db: string, runId: number, stepId = "find") => readStepResult(db, runId, stepId);

describe("search steps on the firecrawl engine", () => {
  it("posts the v2 body to /v2/search, stores the results 1:1 and the credits the service billed", async () => {
    service.on("POST /v2/search", (_call, res) =>
      json(res, 200, {
        success: true,
        data: {
          web: [{ url: "https://a.example/1", title: "One", description: "first", position: 1 }],
          news: [{ title: "Story", url: "https://n.example/s", snippet: "snip", date: "3 hours ago", imageUrl: "https://n.example/i.jpg", position: 1 }],
          images: [{ title: "Pic", imageUrl: "https://i.example/p.png", imageWidth: 640, imageHeight: 480, url: "https://i.example/page", position: 1 }],
        },
        creditsUsed: 2,
        id: "search-1",
        warning: "some sources were slow",
      }),
    );
    const { result, db, events } = await runOk(remote(`  - id: find\n    search: { query: "llama farming", limit: 5, sources: [web, news, images], tbs: "qdr:w", country: de }\n`));
    expect(result.status).toBe("succeeded");
    const call = service.calls.find((c) => c.path === "/v2/search")!;
    expect(call.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(call.body).toEqual({ query: "llama farming", limit: 5, sources: [{ type: "web" }, { type: "news" }, { type: "images" }], tbs: "qdr:w", country: "de", timeout: 60000, ignoreInvalidURLs: false });
    const stored = stepResult(db, result.runId);
    expect(stored.data.news).toEqual([{ title: "Story", url: "https://n.example/s", snippet: "snip", date: "3 hours ago", imageUrl: "https://n.example/i.jpg", position: 1 }]);
    expect(stored.data.images[0]).toEqual({ title: "Pic", imageUrl: "https://i.example/p.png", imageWidth: 640, imageHeight: 480, url: "https://i.example/page", position: 1 });
    expect(stored.creditsUsed).toBe(2);
    expect(result.credits).toBe(2);
    expect(events).toContainEqual({ type: "step-warning", stepId: "find", message: "some sources were slow" });
    expect(readDocuments(db, result.runId, "find")).toHaveLength(0);
  });

  it("stores the results the service scraped as documents, with the scrape options sent as given", async () => {
    service.on("POST /v2/search", (_call, res) =>
      json(res, 200, {
        success: true,
        data: { web: [{ url: "https://a.example/1", title: "One", description: "first", position: 1, markdown: "# One", metadata: { title: "One", statusCode: 200, creditsUsed: 1 } }] },
        creditsUsed: 3,
      }),
    );
    const { result, db } = await runOk(remote(`  - id: find\n    search: { query: q, limit: 1, scrapeOptions: { formats: [markdown] } }\n`));
    expect(result.status).toBe("succeeded");
    const call = service.calls.find((c) => c.path === "/v2/search")!;
    expect((call.body as { scrapeOptions: { formats: unknown } }).scrapeOptions.formats).toEqual([{ type: "markdown" }]);
    expect(stepResult(db, result.runId).data.web).toEqual([{ url: "https://a.example/1", title: "One", description: "first", position: 1 }]);
    const [doc] = readDocuments(db, result.runId, "find");
    expect(doc!.url).toBe("https://a.example/1");
    expect(doc!.document.markdown).toBe("# One");
    expect(doc!.creditsUsed).toBe(1);
    expect(result.credits).toBe(3);
  });

  it("fails the step with the service's error", async () => {
    service.on("POST /v2/search", (_call, res) => json(res, 400, { success: false, error: "Bad Request: invalid tbs" }));
    const { result, events } = await runOk(remote(`  - id: find\n    search: { query: q }\n`));
    expect(result.status).toBe("failed");
    expect(events.find((e) => e.type === "step-finished")).toMatchObject({ status: "failed", error: expect.stringContaining("invalid tbs") });
  });
});
