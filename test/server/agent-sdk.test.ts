import Firecrawl from "@mendable/firecrawl-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeLlm } from "../helpers/llm-server.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { startServe, type Serve } from "./helpers.js";

// The service's official JS SDK's agent calls, pointed at scrapeline serve with a scripted model.
let serve: Serve;
let client: Firecrawl;
const site = new FixtureSite();
const llm = new FakeLlm();

beforeAll(async () => {
  site.page("/widget", htmlPage("Widget", `<p>Price: $42.50</p>`));
  await site.start();
  await llm.start();
  serve = await startServe({ sdk: { planTokens: 1_000_000 } }, { env: { SCRAPELINE_LLM_BASE_URL: llm.url, SCRAPELINE_LLM_MODEL: "m" } });
  client = new Firecrawl({ apiKey: serve.keys.sdk!, apiUrl: serve.server.url });
});
afterAll(async () => {
  await serve?.stop();
  await llm.stop();
  await site.stop();
});

describe("@mendable/firecrawl-js agent against serve", () => {
  it("agent() starts a job and waits for its data", async () => {
    llm.answer({ toolCalls: [{ name: "scrape", arguments: { url: `${site.url}/widget` } }] }, { content: JSON.stringify({ data: { price: 42.5 }, sources: { price: [`${site.url}/widget`] } }) });
    const done = await client.agent({ prompt: "Widget price", urls: [`${site.url}/widget`], schema: { type: "object", properties: { price: { type: "number" } } }, maxCredits: 100, pollInterval: 1 });
    expect(done).toMatchObject({ success: true, status: "completed", data: { price: 42.5 }, creditsUsed: expect.any(Number), expiresAt: expect.any(String) });
  });

  it("startAgent, getAgentStatus and cancelAgent", async () => {
    llm.answer({ hang: true });
    const started = await client.startAgent({ prompt: "Widget price" });
    expect(started).toMatchObject({ success: true, id: expect.any(String) });
    expect(await client.getAgentStatus(started.id)).toMatchObject({ status: "processing" });
    expect(await client.cancelAgent(started.id)).toBe(true);
  });

  it("listAgents lists the team's agent jobs, newest first", async () => {
    const listed = await client.listAgents();
    expect(listed.success).toBe(true);
    expect(listed.agents).toHaveLength(2);
    expect(listed.agents![0]).toMatchObject({ id: expect.any(String), status: "cancelled", createdAt: expect.any(String) });
    expect(listed.agents![1]).toMatchObject({ status: "completed", targetHint: `${site.url}/widget` });
    expect(listed.next).toBeUndefined();
  });
});
