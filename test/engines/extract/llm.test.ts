import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Extractor } from "../../../src/engines/local/extract/index.js";
import { FakeLlm } from "../../helpers/llm-server.js";

const llm = new FakeLlm();
beforeAll(async () => void (await llm.start()));
afterAll(async () => llm.stop());
beforeEach(() => {
  llm.requests.length = 0;
  llm.fallback = undefined;
});

const schema = { type: "object", properties: { name: { type: "string" }, price: { type: "number" }, tags: { type: "array", items: { type: "string" } } }, required: ["name"] };
const page = { url: "https://shop.example/kettle", markdown: "# Kettle\n\nPrice: 24.50\n" };
const extractor = (extra: Record<string, unknown> = {}) => new Extractor({ mode: "auto", llm: { baseUrl: llm.url, model: "test-model", apiKey: "sk-secret-123", attempts: 3, timeoutMs: 5000, ...extra } });

describe("LLM extraction", () => {
  it("sends the model, temperature 0, the page and the user's schema as structured output; counts real tokens", async () => {
    llm.answer({ content: '{"name":"Kettle","price":24.5}', tokens: 321 });
    const result = await extractor().extractPage(page, { schema, prompt: "Name and price" });
    expect(result).toMatchObject({ data: { name: "Kettle", price: 24.5 }, tokensUsed: 321, extractor: "llm" });
    const [request] = llm.requests;
    expect(request!.path).toBe("/v1/chat/completions");
    expect(request!.authorization).toBe("Bearer sk-secret-123");
    expect(request!.body.model).toBe("test-model");
    expect(request!.body.temperature).toBe(0);
    expect(request!.body.response_format).toEqual({ type: "json_schema", json_schema: { name: "extraction", schema, strict: false } });
    const user = request!.body.messages.find((m) => m.role === "user")!.content;
    expect(user).toContain("Task: Name and price");
    expect(user).toContain("Price: 24.50");
    expect(user).toContain(JSON.stringify(schema));
  });

  it("sends the schema without the deterministic extractor's x- annotations, keeping fields whose names start with x-", async () => {
    llm.answer({ content: '{"name":"Kettle","x-rate":2}' });
    const annotated = { type: "object", properties: { name: { type: "string", "x-selector": "h1" }, "x-rate": { type: "number", "x-selector": ".rate", "x-attribute": "data-r" } } };
    const result = await extractor().extractPage(page, { schema: annotated });
    expect(result.data).toEqual({ name: "Kettle", "x-rate": 2 });
    expect(llm.requests[0]!.body.response_format?.json_schema?.schema).toEqual({ type: "object", properties: { name: { type: "string" }, "x-rate": { type: "number" } } });
  });

  it("asks again after malformed JSON and after an answer that breaks the schema, counting every try's tokens", async () => {
    llm.answer({ content: "Sure! Here it is: {name: Kettle", tokens: 50 }, { content: '{"name": 42}', tokens: 60 }, { content: '```json\n{"name":"Kettle"}\n```', tokens: 70 });
    const result = await extractor().extractPage(page, { schema });
    expect(result.data).toEqual({ name: "Kettle" });
    expect(result.tokensUsed).toBe(180);
    expect(llm.requests).toHaveLength(3);
    expect(llm.requests[2]!.body.messages.at(-1)!.content).toMatch(/does not match the schema \(name: must be string\)/);
  });

  it("fails with the violation once the tries are spent", async () => {
    llm.answer({ content: '{"price":"cheap"}' }, { content: '{"price":"cheap"}' }, { content: '{"price":"cheap"}' });
    await expect(extractor().extractPage(page, { schema })).rejects.toThrow(/rejected 3 times: it does not match the schema \(price: must be number\)/);
  });

  it("waits out a 429 with Retry-After and retries a 500", async () => {
    llm.answer({ status: 429, headers: { "retry-after": "0" }, body: '{"error":"slow down"}' }, { status: 500, body: '{"error":"boom"}' }, { content: '{"name":"Kettle"}', tokens: 10 });
    const result = await extractor().extractPage(page, { schema });
    expect(result.data).toEqual({ name: "Kettle" });
    expect(llm.requests).toHaveLength(3);
  });

  it("gives up on a server that keeps failing, without the key in the message", async () => {
    llm.fallback = () => ({ status: 503, body: '{"error":"overloaded"}' });
    const error = await extractor({ attempts: 2 }).extractPage(page, { schema }).catch((e: Error) => e);
    expect(String(error)).toMatch(/HTTP 503/);
    expect(String(error)).not.toContain("sk-secret-123");
  });

  it("falls back to json_object, then to no response_format, when the server refuses structured output", async () => {
    llm.answer({ status: 400, body: '{"error":{"message":"response_format json_schema is not supported"}}' }, { status: 400, body: '{"error":"unknown field response_format"}' }, { content: '{"name":"Kettle"}' });
    const result = await extractor().extractPage(page, { schema });
    expect(result.data).toEqual({ name: "Kettle" });
    expect(llm.requests.map((r) => r.body.response_format?.type ?? "none")).toEqual(["json_schema", "json_object", "none"]);
  });

  it("times out an endpoint that never answers", async () => {
    llm.answer({ hang: true });
    await expect(extractor({ timeoutMs: 1000, attempts: 1 }).extractPage(page, { schema })).rejects.toMatchObject({ kind: "timeout" });
  });

  it("chunks a page longer than the context, with overlap, and merges the chunks in order", async () => {
    const long = Array.from({ length: 400 }, (_, i) => `Line ${i} about the kettle, which is a fine kettle.`).join("\n");
    llm.fallback = (request) => {
      const user = request.body.messages.find((m) => m.role === "user")!.content;
      const part = /part (\d+) of/.exec(user)?.[1];
      return { content: JSON.stringify({ name: part === "1" ? "Kettle" : "Other", tags: [`part-${part}`, "kettle"] }), tokens: 10 };
    };
    const result = await extractor({ contextTokens: 5000 }).extractPage({ url: page.url, markdown: long }, { schema });
    const count = llm.requests.length;
    expect(count).toBeGreaterThan(1);
    expect(result.data).toEqual({ name: "Kettle", tags: [...Array.from({ length: count }, (_, i) => `part-${i + 1}`).slice(0, 1), "kettle", ...Array.from({ length: count - 1 }, (_, i) => `part-${i + 2}`)] });
    expect(result.warnings.join(" ")).toMatch(/disagree: name: kept "Kettle"/);
    const firstUser = llm.requests[0]!.body.messages.find((m) => m.role === "user")!.content;
    const secondUser = llm.requests[1]!.body.messages.find((m) => m.role === "user")!.content;
    const lastLineOfFirst = firstUser.trimEnd().split("\n").at(-1)!;
    expect(secondUser).toContain(lastLineOfFirst);
  });

  it("writes summaries in prose, without a response_format", async () => {
    llm.answer({ content: "A kettle for 24.50.", tokens: 40 });
    const result = await extractor().summarize(page);
    expect(result).toEqual({ summary: "A kettle for 24.50.", tokensUsed: 40 });
    expect(llm.requests[0]!.body.response_format).toBeUndefined();
  });

  it("uses no model when the deterministic extractor is forced", async () => {
    const forced = new Extractor({ mode: "deterministic", llm: { baseUrl: llm.url, model: "m" } });
    const result = await forced.extractPage({ ...page, rawHtml: '<meta property="og:title" content="Kettle">' }, { schema });
    expect(result).toMatchObject({ data: { name: "Kettle" }, tokensUsed: 0, extractor: "deterministic" });
    expect(llm.requests).toHaveLength(0);
  });
});
