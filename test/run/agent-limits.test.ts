import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeLlm } from "../helpers/llm-server.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { pipeline, readDocuments, runYaml, readStepResult } from "./helpers.js";

const site = new FixtureSite();
const llm = new FakeLlm();
const env = () => ({ SCRAPELINE_LLM_BASE_URL: llm.url, SCRAPELINE_LLM_MODEL: "agent-model" });
const schema = `{type: object, properties: {price: {type: number}}, required: [price]}`;
const agentStep = (body: string) => `  - id: find\n    agent:\n${body.split("\n").map((l) => `      ${l}`).join("\n")}\n`;

beforeAll(async () => {
  site
    .page("/catalog", htmlPage("Catalog", `<a href="/catalog/widget">Widget</a>`))
    .page("/catalog/widget", htmlPage("Widget", `<p>The widget costs <strong>$42.50</strong>.</p>`))
    .page("/elsewhere", htmlPage("Elsewhere", `<p>Not for the agent.</p>`));
  await site.start();
  await llm.start();
});

afterAll(async () => {
  await site.stop();
  await llm.stop();
});

const stepResult = (db: string, runId: number) => readStepResult(db, runId, "find");

const toolMessages = (i: number) => llm.requests[i]!.body.messages.filter((m) => m.role === "tool").map((m) => m.content);

describe("agent limits", () => {
  it("with strictConstrainToURLs refuses a call outside the URLs and tells the model so", async () => {
    llm.requests.length = 0;
    llm.answer(
      { toolCalls: [{ name: "scrape", arguments: { url: `${site.url}/elsewhere` } }] },
      { toolCalls: [{ name: "scrape", arguments: { url: `${site.url}/catalog/widget` } }] },
      { content: JSON.stringify({ data: { price: 42.5 }, sources: { price: [`${site.url}/catalog/widget`] } }) },
    );
    const { result, db } = await runYaml(pipeline(agentStep(`prompt: Widget price\nurls: ["${site.url}/catalog"]\nstrictConstrainToURLs: true\nschema: ${schema}`)), { env: env() });
    if (!result.ok) throw new Error("invalid");
    expect(result.status).toBe("succeeded");
    expect(site.hits.get("/elsewhere")).toBeUndefined();
    expect(toolMessages(1)[0]).toMatch(/^Refused: http:\/\/127\.0\.0\.1:\d+\/elsewhere is outside the allowed URLs .*only those and pages under them may be used/);
    expect(llm.requests[0]!.body.messages[1]!.content).toMatch(/You may only use those URLs and pages under them/);
    const stored = stepResult(db, result.runId);
    expect(stored).toMatchObject({ status: "completed", data: { price: 42.5 } });
    expect(stored.transcript[1]).toMatchObject({ type: "refused", name: "scrape" });
    expect(readDocuments(db, result.runId, "find").map((d) => d.url)).toEqual([`${site.url}/catalog/widget`]);
  });

  it("stops cleanly at maxCredits with status partial and keeps what it has", async () => {
    llm.requests.length = 0;
    // 150 tokens a turn = 10 credits; a page 1 credit.
    llm.answer(
      { toolCalls: [{ name: "scrape", arguments: { url: `${site.url}/catalog` } }], tokens: 150 },
      { toolCalls: [{ name: "scrape", arguments: { url: `${site.url}/catalog/widget` } }], tokens: 150 },
    );
    const widgetHits = site.hits.get("/catalog/widget") ?? 0;
    const { result, db, events } = await runYaml(pipeline(agentStep(`prompt: Widget price\nmaxCredits: 12`)), { env: env() });
    if (!result.ok) throw new Error("invalid");
    expect(result.status).toBe("succeeded");
    const stored = stepResult(db, result.runId);
    expect(stored).toMatchObject({ status: "partial", data: null, creditsUsed: 21, error: expect.stringMatching(/^maxCredits reached: 21 of 12 credit\(s\) spent; no closing answer: /) });
    expect(site.hits.get("/catalog/widget") ?? 0).toBe(widgetHits);
    expect(readDocuments(db, result.runId, "find").map((d) => d.url)).toEqual([`${site.url}/catalog`]);
    expect(events.find((e) => e.type === "step-warning")).toMatchObject({ message: expect.stringMatching(/partial result: maxCredits reached/) });
    expect(llm.requests).toHaveLength(2);
  });

  it("asks once for a repair of an answer that is not JSON", async () => {
    llm.requests.length = 0;
    llm.answer(
      { toolCalls: [{ name: "scrape", arguments: { url: `${site.url}/catalog/widget` } }] },
      { content: "The widget costs $42.50." },
      { content: JSON.stringify({ data: { price: 42.5 }, sources: { price: [`${site.url}/catalog/widget`] } }) },
    );
    const { result, db } = await runYaml(pipeline(agentStep(`prompt: Widget price\nschema: ${schema}`)), { env: env() });
    if (!result.ok) throw new Error("invalid");
    expect(result.status).toBe("succeeded");
    expect(stepResult(db, result.runId)).toMatchObject({ status: "completed", data: { price: 42.5 }, sources: { price: [`${site.url}/catalog/widget`] } });
    expect(llm.requests[2]!.body.messages.at(-1)!.content).toMatch(/^Your answer was rejected: the answer is not valid JSON/);
  });

  it("fails with the path when the repaired answer still breaks the schema", async () => {
    llm.requests.length = 0;
    llm.answer({ content: JSON.stringify({ data: { price: "42.50" } }) }, { content: JSON.stringify({ data: { price: "about 42" } }) });
    const { result, db, events } = await runYaml(pipeline(agentStep(`prompt: Widget price\nschema: ${schema}`)), { env: env() });
    if (!result.ok) throw new Error("invalid");
    expect(result.status).toBe("failed");
    expect(llm.requests[1]!.body.messages.at(-1)!.content).toMatch(/\/price: must be number/);
    expect(events.find((e) => e.type === "step-finished")).toMatchObject({ status: "failed", error: expect.stringMatching(/rejected after one repair: the data does not match the schema: \/price: must be number/) });
    expect(stepResult(db, result.runId)).toMatchObject({ status: "failed", transcript: [{ type: "model" }, { type: "model" }, { type: "stopped" }] });
  });

  it("detects the same tool call looping, stops it and asks once for an answer from what it has", async () => {
    llm.requests.length = 0;
    const same = { toolCalls: [{ name: "scrape", arguments: { url: `${site.url}/catalog` } }] };
    llm.answer(same, same, same, { content: JSON.stringify({ data: { pages: 1 }, sources: { pages: [`${site.url}/catalog`] } }) });
    const catalogHits = site.hits.get("/catalog") ?? 0;
    const { result, db } = await runYaml(pipeline(agentStep(`prompt: Widget price`)), { env: env() });
    if (!result.ok) throw new Error("invalid");
    const stored = stepResult(db, result.runId);
    expect(stored).toMatchObject({ status: "partial", data: { pages: 1 }, sources: { pages: [`${site.url}/catalog`] }, error: expect.stringMatching(/repeated the call scrape .* 3 times: stopped as a loop$/) });
    expect(llm.requests).toHaveLength(4);
    expect(llm.requests[3]!.body.tools).toBeUndefined();
    expect(llm.requests[3]!.body.messages.at(-1)!.content).toMatch(/^Stop: the model repeated the call .* Do not call tools\. Answer now/);
    expect(toolMessages(2)[1]).toMatch(/^Refused: you already made this exact call/);
    expect(site.hits.get("/catalog")).toBe(catalogHits + 1);
  });

  it("fails as a timeout when the model never answers", async () => {
    llm.requests.length = 0;
    llm.answer({ hang: true });
    const { result, db, events } = await runYaml(pipeline(agentStep(`prompt: Widget price`), "llm: { timeoutMs: 1000 }\n"), { env: env() });
    if (!result.ok) throw new Error("invalid");
    expect(result.status).toBe("failed");
    expect(events.find((e) => e.type === "step-finished")).toMatchObject({ status: "failed", error: expect.stringMatching(/the model did not answer: the LLM endpoint .* did not answer within 1000 ms/) });
    expect(stepResult(db, result.runId)).toMatchObject({ status: "failed", errorKind: "timeout" });
  });

  it("stops at maxSteps with status partial", async () => {
    llm.requests.length = 0;
    llm.answer({ toolCalls: [{ name: "scrape", arguments: { url: `${site.url}/catalog` } }] }, { toolCalls: [{ name: "scrape", arguments: { url: `${site.url}/catalog/widget` } }] }, { content: "I could not decide." });
    const { result, db } = await runYaml(pipeline(agentStep(`prompt: Widget price\nmaxSteps: 2`)), { env: env() });
    if (!result.ok) throw new Error("invalid");
    expect(stepResult(db, result.runId)).toMatchObject({ status: "partial", data: null, error: "maxSteps reached: 2 turn(s) without a final answer; the closing answer was not usable: the answer is not valid JSON" });
    expect(readDocuments(db, result.runId, "find")).toHaveLength(2);
  });
});
