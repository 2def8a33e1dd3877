import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FakeService, json } from "../helpers/fake-service.js";
import { FakeLlm } from "../helpers/llm-server.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { startServe, type Serve } from "../server/helpers.js";
import { pipeline, runYaml, readStepResult } from "./helpers.js";

const KEY = "fc-0123456789abcdef-secret";
const service = new FakeService();
beforeAll(async () => void (await service.start()));
afterAll(async () => service.stop());
beforeEach(() => void (service.calls.length = 0));

const remote = (steps: string, baseUrl = service.url) => pipeline(steps, `engine: { kind: firecrawl, baseUrl: "${baseUrl}" }\n`);

const stepResult = (db: string, runId: number, stepId = "find") => readStepResult(db, runId, stepId);

describe("agent steps on the firecrawl engine", () => {
  it("posts the step to /v2/agent, polls until it ends and stores the data and the credits the service billed", async () => {
    service.on("POST /v2/agent", (_call, res) => json(res, 200, { success: true, id: "agent-7" }));
    service.on("GET /v2/agent/agent-7", (_call, res, n) =>
      n < 2 ? json(res, 200, { success: true, status: "processing", data: null, creditsUsed: 3, expiresAt: "2030-01-01T00:00:00Z" }) : json(res, 200, { success: true, status: "completed", data: { price: 9 }, creditsUsed: 57, expiresAt: "2030-01-01T00:00:00Z" }),
    );
    const { result, db } = await runYaml(remote(`  - id: find\n    agent: { prompt: "Find the price", urls: ["https://shop.example/"], maxCredits: 100 }\n`), { env: { FIRECRAWL_API_KEY: KEY } });
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    expect(result.status).toBe("succeeded");
    const post = service.calls.find((c) => c.method === "POST")!;
    expect(post.body).toEqual({ prompt: "Find the price", urls: ["https://shop.example/"], strictConstrainToURLs: false, maxCredits: 100 });
    expect(post.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(service.calls.filter((c) => c.method === "GET")).toHaveLength(2);
    expect(stepResult(db, result.runId)).toMatchObject({ status: "completed", data: { price: 9 }, creditsUsed: 57, transcript: [] });
    expect(result.credits).toBe(57);
  });

  it("asks the service to keep within what is left of the run's budget", async () => {
    service.on("POST /v2/agent", (_call, res) => json(res, 200, { success: true, id: "agent-10" }));
    service.on("GET /v2/agent/agent-10", (_call, res) => json(res, 200, { success: true, status: "completed", data: {}, creditsUsed: 40 }));
    const { result } = await runYaml(remote(`  - id: find\n    agent: { prompt: "Find the price" }\n`).replace("steps:", "budget: { maxCredits: 40 }\nsteps:"), { env: { FIRECRAWL_API_KEY: KEY } });
    if (!result.ok) throw new Error("invalid");
    expect(service.calls.find((c) => c.method === "POST")!.body).toMatchObject({ maxCredits: 40 });
    expect(result.credits).toBe(40);
  });

  it("fails the step with the service's reason when the agent fails there", async () => {
    service.on("POST /v2/agent", (_call, res) => json(res, 200, { success: true, id: "agent-8" }));
    service.on("GET /v2/agent/agent-8", (_call, res) => json(res, 200, { success: false, status: "failed", data: null, error: "the model gave up", creditsUsed: 4 }));
    const { result, events } = await runYaml(remote(`  - id: find\n    agent: { prompt: "Find the price", maxSteps: 5 }\n`), { env: { FIRECRAWL_API_KEY: KEY } });
    if (!result.ok) throw new Error("invalid");
    expect(result.status).toBe("failed");
    expect(service.calls.find((c) => c.method === "POST")!.body).toMatchObject({ maxSteps: 5 });
    expect(events.find((e) => e.type === "step-finished")).toMatchObject({ status: "failed", error: "the agent failed: the model gave up" });
  });

  it("asks the service to cancel the job when the step times out", async () => {
    service.on("POST /v2/agent", (_call, res) => json(res, 200, { success: true, id: "agent-9" }));
    service.on("GET /v2/agent/agent-9", (_call, res) => json(res, 200, { success: true, status: "processing", data: null, creditsUsed: 1 }));
    service.on("DELETE /v2/agent/agent-9", (_call, res) => json(res, 200, { success: true, status: "cancelled" }));
    const { result, events } = await runYaml(remote(`  - id: find\n    timeoutMs: 1200\n    agent: { prompt: "Find the price" }\n`), { env: { FIRECRAWL_API_KEY: KEY } });
    if (!result.ok) throw new Error("invalid");
    expect(result.status).toBe("failed");
    expect(service.calls.filter((c) => c.method === "DELETE").map((c) => c.path)).toEqual(["/v2/agent/agent-9"]);
    expect(events.find((e) => e.type === "step-finished")).toMatchObject({ status: "failed" });
  });
});

describe("agent steps through scrapeline serve", () => {
  const site = new FixtureSite();
  const llm = new FakeLlm();
  let serve: Serve;
  beforeAll(async () => {
    site.page("/", htmlPage("Shop", `<a href="/widget">Widget</a>`)).page("/widget", htmlPage("Widget", `<p>Price: $42.50</p>`));
    await site.start();
    await llm.start();
    serve = await startServe({ acme: { planTokens: 1_000_000 } }, { env: { SCRAPELINE_LLM_BASE_URL: llm.url, SCRAPELINE_LLM_MODEL: "m" } });
  });
  afterAll(async () => {
    await serve?.stop();
    await llm.stop();
    await site.stop();
  });

  it("runs on the server's model and stores the server's answer with its transcript", async () => {
    llm.answer(
      { toolCalls: [{ name: "scrape", arguments: { url: `${site.url}/widget` } }], tokens: 150 },
      { content: JSON.stringify({ data: { price: 42.5 }, sources: { price: [`${site.url}/widget`] } }), tokens: 150 },
    );
    const { result, db } = await runYaml(remote(`  - id: find\n    agent: { prompt: "Widget price", urls: ["${site.url}/"] }\n`, serve.server.url), { env: { FIRECRAWL_API_KEY: serve.keys.acme! } });
    if (!result.ok) throw new Error("invalid");
    expect(result.status).toBe("succeeded");
    const stored = stepResult(db, result.runId);
    expect(stored).toMatchObject({ status: "completed", data: { price: 42.5 }, sources: { price: [`${site.url}/widget`] }, creditsUsed: 1 + 20 });
    expect(stored.transcript.map((e: { type: string }) => e.type)).toEqual(["model", "tool", "model"]);
  });
});
