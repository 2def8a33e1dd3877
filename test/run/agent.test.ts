import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeLlm } from "../helpers/llm-server.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { pipeline, readDocuments, runYaml, readStepResult } from "./helpers.js";

const site = new FixtureSite();
const llm = new FakeLlm();
const env = () => ({ SCRAPELINE_LLM_BASE_URL: llm.url, SCRAPELINE_LLM_MODEL: "agent-model", SCRAPELINE_LLM_API_KEY: "sk-agent-secret" });
const schema = `{type: object, properties: {price: {type: number}, currency: {type: string}}, required: [price]}`;

beforeAll(async () => {
  site
    .page("/", htmlPage("Shop", `<p>Welcome.</p><a href="/catalog">Catalog</a>`))
    .page("/catalog", htmlPage("Catalog", `<ul><li><a href="/catalog/widget">Widget</a></li><li><a href="/catalog/gadget">Gadget</a></li></ul>`))
    .page("/catalog/widget", htmlPage("Widget", `<p>The widget costs <strong>$42.50</strong>.</p>`))
    .page("/elsewhere", htmlPage("Elsewhere", `<p>Not for the agent.</p>`))
    .page("/offer", htmlPage("Offer", `<p>Now only <span class="price">£1,049.00</span></p>`));
  await site.start();
  await llm.start();
});

afterAll(async () => {
  await site.stop();
  await llm.stop();
});

const stepResult = (db: string, runId: number, stepId = "find") => readStepResult(db, runId, stepId);

const agentStep = (body: string) => `  - id: find\n    agent:\n${body.split("\n").map((l) => `      ${l}`).join("\n")}\n`;

describe("agent step", () => {
  it("finds a price two clicks deep, answers with per-field sources and stores every page and turn", async () => {
    llm.requests.length = 0;
    llm.answer(
      { toolCalls: [{ name: "scrape", arguments: { url: `${site.url}/` } }], tokens: 150 },
      { toolCalls: [{ name: "scrape", arguments: { url: `${site.url}/catalog` } }], tokens: 150 },
      { toolCalls: [{ name: "scrape", arguments: { url: `${site.url}/catalog/widget` } }], tokens: 150 },
      { content: JSON.stringify({ data: { price: 42.5, currency: "USD" }, sources: { price: [`${site.url}/catalog/widget`], currency: ["https://never-read.example/"] } }), tokens: 150 },
    );
    const { result, db, events } = await runYaml(pipeline(agentStep(`prompt: What does the widget cost?\nurls: ["${site.url}/"]\nschema: ${schema}`)), { env: env() });
    if (!result.ok) throw new Error("invalid");
    expect(result.status).toBe("succeeded");
    const stored = stepResult(db, result.runId);
    expect(stored).toMatchObject({ status: "completed", data: { price: 42.5, currency: "USD" }, sources: { price: [`${site.url}/catalog/widget`] }, tokensUsed: 600 });
    // A source the agent never read is dropped.
    expect(stored.sources.currency).toBeUndefined();
    // 3 pages at 1 credit + 600 tokens at 15 a credit.
    expect(stored.creditsUsed).toBe(3 + 40);
    expect(result.credits).toBe(3 + 40);
    expect(stored.transcript.map((e: { type: string; name?: string }) => `${e.type}${e.name ? `:${e.name}` : ""}`)).toEqual(["model", "tool:scrape", "model", "tool:scrape", "model", "tool:scrape", "model"]);
    expect(readDocuments(db, result.runId, "find").map((d) => d.url).sort()).toEqual([`${site.url}/`, `${site.url}/catalog`, `${site.url}/catalog/widget`]);
    // The model saw the page it asked for, and was offered the tools by the tool-calling API.
    const last = llm.requests.at(-1)!.body;
    expect(last.messages.find((m) => m.role === "tool" && m.content.includes("$42.50"))).toBeDefined();
    expect(last.tools!.map((t) => t.function.name)).toEqual(["map", "scrape", "extract"]);
    expect(llm.requests[0]!.authorization).toBe("Bearer sk-agent-secret");
    expect(events.filter((e) => e.type === "document-stored")).toHaveLength(3);
  });

  it("falls back to JSON messages when the server has no tool calling", async () => {
    llm.requests.length = 0;
    llm.answer(
      { status: 400, body: '{"error":{"message":"tools is not supported by this model"}}' },
      { content: JSON.stringify({ tool: "scrape", arguments: { url: `${site.url}/catalog/widget` } }) },
      { content: JSON.stringify({ data: { price: 42.5 }, sources: { price: [`${site.url}/catalog/widget`] } }) },
    );
    const { result, db } = await runYaml(pipeline(agentStep(`prompt: What does the widget cost?\nschema: ${schema}`)), { env: env() });
    if (!result.ok) throw new Error("invalid");
    expect(result.status).toBe("succeeded");
    expect(stepResult(db, result.runId)).toMatchObject({ status: "completed", data: { price: 42.5 }, sources: { price: [`${site.url}/catalog/widget`] } });
    expect(llm.requests[1]!.body.tools).toBeUndefined();
    expect(llm.requests[1]!.body.messages[0]!.content).toMatch(/\{"tool": "<name>"/);
    expect(llm.requests[2]!.body.messages.some((m) => m.role === "user" && m.content.startsWith("Result of scrape:") && m.content.includes("$42.50"))).toBe(true);
  });

  it("extracts with the page's selectors first, without asking the model, billed as a json scrape", async () => {
    llm.requests.length = 0;
    llm.answer(
      { toolCalls: [{ name: "extract", arguments: { url: `${site.url}/offer`, schema: { type: "object", properties: { price: { type: "number", "x-selector": ".price" } }, required: ["price"] } } }], tokens: 30 },
      { content: JSON.stringify({ data: { price: 1049 }, sources: { price: [`${site.url}/offer`] } }), tokens: 30 },
    );
    const { result, db } = await runYaml(pipeline(agentStep(`prompt: The offer's price\nschema: ${schema}`)), { env: env() });
    if (!result.ok) throw new Error("invalid");
    expect(result.status).toBe("succeeded");
    const stored = stepResult(db, result.runId);
    expect(stored.transcript[1]).toMatchObject({ type: "tool", name: "extract", output: `Data read from ${site.url}/offer (from the page's structured data and selectors):\n{"price":1049}`, credits: 5 });
    expect(stored).toMatchObject({ status: "completed", sources: { price: [`${site.url}/offer`] }, creditsUsed: 5 + 4 });
    expect(result.credits).toBe(5 + 4);
    expect(llm.requests).toHaveLength(2);
    // The page is stored without the raw HTML the extraction read.
    const [document] = readDocuments(db, result.runId, "find");
    expect(document!.document.rawHtml).toBeUndefined();
    expect(document!.document.markdown).toContain("£1,049.00");
  });

  it("keeps a page read twice billed twice (scraped, then extracted)", async () => {
    llm.answer(
      { toolCalls: [{ name: "scrape", arguments: { url: `${site.url}/offer` } }], tokens: 15 },
      { toolCalls: [{ name: "extract", arguments: { url: `${site.url}/offer`, schema: { type: "object", properties: { price: { type: "number", "x-selector": ".price" } } } } }], tokens: 15 },
      { content: JSON.stringify({ data: { price: 1049 } }), tokens: 15 },
    );
    const { result, db } = await runYaml(pipeline(agentStep(`prompt: The offer's price`)), { env: env() });
    if (!result.ok) throw new Error("invalid");
    expect(stepResult(db, result.runId)).toMatchObject({ status: "completed", creditsUsed: 1 + 5 + 3 });
    expect(result.credits).toBe(1 + 5 + 3);
    expect(readDocuments(db, result.runId, "find")).toHaveLength(1);
  });

  it("says what to configure when no model is set", async () => {
    const { result, events } = await runYaml(pipeline(agentStep(`prompt: What does the widget cost?`)), { env: {} });
    if (!result.ok) throw new Error("invalid");
    expect(result.status).toBe("failed");
    expect(events.find((e) => e.type === "step-finished")).toMatchObject({ status: "failed", error: expect.stringMatching(/agent step needs an LLM: set SCRAPELINE_LLM_BASE_URL/) });
    const deterministic = await runYaml(pipeline(agentStep(`prompt: What does the widget cost?`), "extractor: deterministic\n"), { env: env() });
    if (!deterministic.result.ok) throw new Error("invalid");
    expect(deterministic.events.find((e) => e.type === "step-finished")).toMatchObject({ status: "failed", error: expect.stringMatching(/this pipeline sets extractor: deterministic, which never calls one/) });
  });
});
