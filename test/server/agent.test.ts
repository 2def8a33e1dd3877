import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setThreatPolicy } from "../../src/app/index.js";
import { FakeLlm } from "../helpers/llm-server.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { startServe, type Serve } from "./helpers.js";

let serve: Serve;
let bare: Serve;
const site = new FixtureSite();
const llm = new FakeLlm();

beforeAll(async () => {
  site.page("/", htmlPage("Shop", `<a href="/widget">Widget</a>`)).page("/widget", htmlPage("Widget", `<p>Price: $42.50</p>`));
  await site.start();
  await llm.start();
  serve = await startServe({ acme: { planTokens: 1_000_000 }, other: { planTokens: 1_000_000 }, guarded: { planTokens: 1_000_000 } }, { env: { SCRAPELINE_LLM_BASE_URL: llm.url, SCRAPELINE_LLM_MODEL: "served-model" } });
  setThreatPolicy(serve.db, "guarded", { enabled: true, blacklist: ["127.0.0.1"] });
  bare = await startServe({ solo: { planTokens: 1_000_000 } });
});
afterAll(async () => {
  await serve?.stop();
  await bare?.stop();
  await llm.stop();
  await site.stop();
});

async function until(id: string, done: (body: any) => boolean, key?: string) {
  for (;;) {
    const reply = await serve.call("GET", `/v2/agent/${id}`, key ? { key } : {});
    if (reply.status !== 200 || done(reply.body)) return reply;
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("/v2/agent on serve", () => {
  it("POST starts an agent job, GET answers processing then its data, sources and credits", async () => {
    llm.answer(
      { toolCalls: [{ name: "scrape", arguments: { url: `${site.url}/` } }], tokens: 150 },
      { toolCalls: [{ name: "scrape", arguments: { url: `${site.url}/widget` } }], tokens: 150 },
      { content: JSON.stringify({ data: { price: 42.5 }, sources: { price: [`${site.url}/widget`] } }), tokens: 150 },
    );
    const started = await serve.call("POST", "/v2/agent", { body: { prompt: "Widget price", urls: [`${site.url}/`], schema: { type: "object", properties: { price: { type: "number" } } }, origin: "js-sdk" } });
    expect(started.status).toBe(200);
    expect(started.body).toEqual({ success: true, id: expect.any(String) });
    const { body } = await until(started.body.id, (b) => b.status !== "processing");
    expect(body).toMatchObject({ success: true, status: "completed", data: { price: 42.5 }, sources: { price: [`${site.url}/widget`] }, creditsUsed: 2 + 30, expiresAt: expect.any(String) });
    expect(body.transcript.map((e: { type: string }) => e.type)).toEqual(["model", "tool", "model", "tool", "model"]);
    // Another team does not see the job.
    const foreign = await serve.call("GET", `/v2/agent/${started.body.id}`, { key: serve.keys.other! });
    expect(foreign.status).toBe(404);
    // The team is charged what the job reports: 32 credits = 480 tokens.
    const usage = await serve.call("GET", "/v2/team/token-usage");
    expect(usage.body.data.remainingTokens).toBe(1_000_000 - 32 * 15);
  });

  it("DELETE cancels a running agent", async () => {
    llm.answer({ hang: true });
    const asked = llm.requests.length;
    const started = await serve.call("POST", "/v2/agent", { body: { prompt: "Widget price" } });
    expect(started.status).toBe(200);
    // The agent is running: it has asked the model, which never answers.
    await llm.nextRequest(asked);
    const foreign = await serve.call("DELETE", `/v2/agent/${started.body.id}`, { key: serve.keys.other! });
    expect(foreign.status).toBe(404);
    const cancelled = await serve.call("DELETE", `/v2/agent/${started.body.id}`);
    expect(cancelled).toMatchObject({ status: 200, body: { success: true, status: "cancelled" } });
    const { body } = await until(started.body.id, (b) => b.status !== "processing");
    expect(body).toMatchObject({ success: false, status: "cancelled", error: "the agent was cancelled" });
  });

  it("holds the agent's tool calls to the team's threat protection", async () => {
    const hits = site.hits.get("/widget") ?? 0;
    llm.answer(
      { toolCalls: [{ name: "map", arguments: { url: `${site.url}/` } }, { name: "scrape", arguments: { url: `${site.url}/widget` } }] },
      { content: JSON.stringify({ data: null }) },
    );
    const blocked = await serve.call("POST", "/v2/agent", { key: serve.keys.guarded!, body: { prompt: "Widget price", urls: [`${site.url}/`] } });
    expect(blocked.status).toBeGreaterThanOrEqual(400);
    expect(blocked.body.error).toMatch(/blacklist/);
    const started = await serve.call("POST", "/v2/agent", { key: serve.keys.guarded!, body: { prompt: "Widget price" } });
    const { body } = await until(started.body.id, (b) => b.status !== "processing", serve.keys.guarded!);
    expect(body.status, JSON.stringify(body)).toBe("completed");
    const outputs = body.transcript.filter((e: { type: string }) => e.type === "tool").map((e: { output: string }) => e.output);
    expect(outputs).toEqual([expect.stringMatching(/^failed: 127\.0\.0\.1 is blocked by threatProtection\.blacklist/), expect.stringMatching(/^failed: blocked: .*blacklist/)]);
    expect(site.hits.get("/widget") ?? 0).toBe(hits);

    // The request's own threatProtection override (as the SDK sends it) applies to the agent's pages.
    llm.answer({ toolCalls: [{ name: "scrape", arguments: { url: `${site.url}/widget` } }] }, { content: JSON.stringify({ data: { price: 42.5 } }) });
    const allowed = await serve.call("POST", "/v2/agent", { key: serve.keys.guarded!, body: { prompt: "Widget price", urls: [`${site.url}/`], threatProtection: { whitelist: ["127.0.0.1"] } } });
    expect(allowed.status).toBe(200);
    const done = await until(allowed.body.id, (b) => b.status !== "processing", serve.keys.guarded!);
    expect(done.body).toMatchObject({ status: "completed", data: { price: 42.5 } });
    expect(site.hits.get("/widget")).toBe(hits + 1);
  });

  it("refuses a body without a prompt, and a server without a model", async () => {
    const bad = await serve.call("POST", "/v2/agent", { body: { urls: [`${site.url}/`] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/prompt/);
    const unknown = await serve.call("POST", "/v2/agent", { body: { prompt: "x", maxTurns: 3 } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatch(/^Unrecognized key in body -- .*maxTurns/);
    const noModel = await bare.call("POST", "/v2/agent", { body: { prompt: "x" } });
    expect(noModel.status).toBeGreaterThanOrEqual(400);
    expect(noModel.body.error).toMatch(/an agent step needs an LLM: start scrapeline serve with SCRAPELINE_LLM_BASE_URL and SCRAPELINE_LLM_MODEL set/);
    // serve has no pipeline: its errors name its own setting, never a pipeline's llm: block.
    const json = await bare.call("POST", "/v2/scrape", { body: { url: `${site.url}/widget`, formats: [{ type: "json", prompt: "the price" }] } });
    expect(json.status).toBeGreaterThanOrEqual(400);
    expect(json.body.error).toMatch(/needs an LLM.*start scrapeline serve with SCRAPELINE_LLM_BASE_URL and SCRAPELINE_LLM_MODEL set/);
    expect(json.body.error).not.toContain("llm: block");
  });
});
