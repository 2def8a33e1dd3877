import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeLlm } from "../helpers/llm-server.js";
import { FakeSearxng } from "../helpers/searxng.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { pipeline, readDocuments, runYaml, readStepResult } from "./helpers.js";

const site = new FixtureSite();
const llm = new FakeLlm();
let searx: FakeSearxng;
const agentStep = (body: string) => `  - id: find\n    agent:\n${body.split("\n").map((l) => `      ${l}`).join("\n")}\n`;

beforeAll(async () => {
  site
    .page("/", htmlPage("Shop", `<a href="/widget">Widget</a> <a href="/gadget">Gadget</a>`))
    .page("/widget", htmlPage("Widget", `<p>Price: $42.50</p>`))
    .page("/gadget", htmlPage("Gadget", `<p>Price: $7</p>`))
    .page("/robots.txt", "");
  await site.start();
  await llm.start();
  searx = await new FakeSearxng({ results: { general: [{ url: `${site.url}/widget`, title: "Widget – Shop", content: "The widget" }] } }).start();
});
afterAll(async () => {
  await site.stop();
  await llm.stop();
  await searx.stop();
});

const stepResult = (db: string, runId: number) => readStepResult(db, runId, "find");

describe("the agent's search and map tools", () => {
  it("searches on the configured SearXNG, then scrapes a result; the search is billed like a search step", async () => {
    llm.requests.length = 0;
    llm.answer(
      { toolCalls: [{ name: "search", arguments: { query: "widget price", limit: 3 } }], tokens: 15 },
      { toolCalls: [{ name: "scrape", arguments: { url: `${site.url}/widget` } }], tokens: 15 },
      { content: JSON.stringify({ data: { price: 42.5 }, sources: { price: [`${site.url}/widget`] } }), tokens: 15 },
    );
    const env = { SCRAPELINE_LLM_BASE_URL: llm.url, SCRAPELINE_LLM_MODEL: "m", SCRAPELINE_SEARXNG_URL: searx.url };
    const { result, db } = await runYaml(pipeline(agentStep(`prompt: Widget price`)), { env });
    if (!result.ok) throw new Error("invalid");
    expect(result.status).toBe("succeeded");
    expect(llm.requests[0]!.body.tools!.map((t) => t.function.name)).toEqual(["search", "map", "scrape", "extract"]);
    const stored = stepResult(db, result.runId);
    expect(stored.transcript[1]).toMatchObject({ type: "tool", name: "search", credits: 2, output: expect.stringContaining(`- ${site.url}/widget: Widget – Shop — The widget`) });
    expect(stored).toMatchObject({ status: "completed", data: { price: 42.5 }, creditsUsed: 2 + 1 + 3 });
    expect(result.credits).toBe(6);
  });

  it("maps a site for 1 credit and lists its URLs to the model", async () => {
    llm.requests.length = 0;
    llm.answer({ toolCalls: [{ name: "map", arguments: { url: `${site.url}/` } }], tokens: 15 }, { content: JSON.stringify({ data: { pages: 3 } }), tokens: 15 });
    const { result, db } = await runYaml(pipeline(agentStep(`prompt: How many pages?`)), { env: { SCRAPELINE_LLM_BASE_URL: llm.url, SCRAPELINE_LLM_MODEL: "m" } });
    if (!result.ok) throw new Error("invalid");
    expect(llm.requests[0]!.body.tools!.map((t) => t.function.name)).toEqual(["map", "scrape", "extract"]);
    const stored = stepResult(db, result.runId);
    expect(stored.transcript[1]).toMatchObject({ type: "tool", name: "map", credits: 1 });
    expect(stored.transcript[1].output).toContain(`${site.url}/gadget`);
    expect(stored.creditsUsed).toBe(1 + 2);
  });

  it("stops partial when the run's budget is spent by tool calls or model tokens, and the run ends budget-exhausted", async () => {
    const env = { SCRAPELINE_LLM_BASE_URL: llm.url, SCRAPELINE_LLM_MODEL: "m" };
    // A turn (15 tokens = 1 credit) leaves no room for a page.
    llm.requests.length = 0;
    llm.answer({ toolCalls: [{ name: "scrape", arguments: { url: `${site.url}/widget` } }], tokens: 15 });
    const first = await runYaml(pipeline(agentStep(`prompt: Prices`), "budget: { maxCredits: 1 }\n"), { env });
    if (!first.result.ok) throw new Error("invalid");
    expect(first.result.status).toBe("budget-exhausted");
    expect(stepResult(first.db, first.result.runId)).toMatchObject({ status: "partial", error: "the run's budget of 1 credits is spent" });
    expect(readDocuments(first.db, first.result.runId, "find")).toHaveLength(0);
    // A turn and a page spend it: the next turn does not start.
    llm.requests.length = 0;
    llm.answer({ toolCalls: [{ name: "scrape", arguments: { url: `${site.url}/widget` } }], tokens: 15 });
    const second = await runYaml(pipeline(agentStep(`prompt: Prices`), "budget: { maxCredits: 2 }\n"), { env });
    if (!second.result.ok) throw new Error("invalid");
    expect(second.result.status).toBe("budget-exhausted");
    expect(llm.requests).toHaveLength(1);
    expect(second.result.credits).toBe(2);
    expect(stepResult(second.db, second.result.runId)).toMatchObject({ status: "partial", creditsUsed: 2, error: "the run's budget of 2 credits is spent" });
    expect(readDocuments(second.db, second.result.runId, "find").map((d) => d.url)).toEqual([`${site.url}/widget`]);
  });
});
