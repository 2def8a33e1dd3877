import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentMessage, AgentToolSpec } from "../../../src/core/index.js";
import { LlmClient } from "../../../src/engines/local/extract/llm-client.js";
import { ToolCallingModel } from "../../../src/engines/local/extract/llm-tools.js";
import { FakeLlm } from "../../helpers/llm-server.js";

const llm = new FakeLlm();
beforeAll(async () => void (await llm.start()));
afterAll(async () => llm.stop());

const tools: AgentToolSpec[] = [{ name: "scrape", description: "Reads a page.", parameters: { type: "object", properties: { url: { type: "string" } }, required: ["url"] } }];
const conversation: AgentMessage[] = [
  { role: "system", content: "You gather data." },
  { role: "user", content: "Task: price" },
  { role: "assistant", content: "", toolCalls: [{ id: "call_1", name: "scrape", arguments: '{"url":"https://shop.test/"}' }] },
  { role: "tool", toolCallId: "call_1", name: "scrape", content: "Price: 3" },
];

function model() {
  const waits: number[] = [];
  const config = { baseUrl: llm.url, model: "tool-model", apiKey: "sk-tools" };
  return { waits, model: new ToolCallingModel(new LlmClient(config), config, async (ms) => void waits.push(ms)) };
}

describe("the agent's model client", () => {
  it("offers tools through the tool-calling API and sends earlier calls and their results back", async () => {
    llm.requests.length = 0;
    llm.answer({ toolCalls: [{ name: "scrape", arguments: { url: "https://shop.test/a" } }], tokens: 42 });
    const { model: m } = model();
    const turn = await m.turn(conversation, tools);
    expect(turn).toEqual({ content: "", toolCalls: [{ id: expect.any(String), name: "scrape", arguments: '{"url":"https://shop.test/a"}' }], tokens: 42 });
    const sent = llm.requests[0]!;
    expect(sent.authorization).toBe("Bearer sk-tools");
    expect(sent.body).toMatchObject({ model: "tool-model", temperature: 0, tool_choice: "auto", tools: [{ type: "function", function: { name: "scrape", description: "Reads a page." } }] });
    expect(sent.body.messages[2]).toEqual({ role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "scrape", arguments: '{"url":"https://shop.test/"}' } }] });
    expect(sent.body.messages[3]).toEqual({ role: "tool", tool_call_id: "call_1", content: "Price: 3" });
  });

  it("waits as a 429 asks and tries again", async () => {
    llm.requests.length = 0;
    llm.answer({ status: 429, headers: { "retry-after": "2" } }, { content: '{"data": 1}', tokens: 5 });
    const { model: m, waits } = model();
    expect(await m.turn(conversation, tools)).toEqual({ content: '{"data": 1}', toolCalls: [], tokens: 5 });
    expect(waits).toEqual([2000]);
  });

  it("switches to JSON messages for a server that refuses tools, and stays there", async () => {
    llm.requests.length = 0;
    llm.answer({ status: 400, body: '{"error":"this model does not support tools"}' }, { content: 'Sure: {"tool": "scrape", "arguments": {"url": "https://shop.test/b"}}' }, { content: '{"data": {"price": 3}}' });
    const { model: m } = model();
    const first = await m.turn(conversation, tools);
    expect(first.toolCalls).toEqual([{ id: expect.any(String), name: "scrape", arguments: '{"url":"https://shop.test/b"}' }]);
    expect(m.protocol).toBe("json");
    const sent = llm.requests[1]!.body;
    expect(sent.tools).toBeUndefined();
    expect(sent.messages[0]!.content).toMatch(/^You gather data\.\nTo call a tool, answer with JSON only/);
    expect(sent.messages[2]).toEqual({ role: "assistant", content: '{"tool":"scrape","arguments":{"url":"https://shop.test/"}}' });
    expect(sent.messages[3]).toEqual({ role: "user", content: "Result of scrape:\nPrice: 3" });
    const second = await m.turn(conversation, tools);
    expect(second).toMatchObject({ content: '{"data": {"price": 3}}', toolCalls: [] });
    expect(llm.requests).toHaveLength(3);
  });

  it("fails with the status when the server keeps refusing", async () => {
    llm.answer({ status: 401, body: '{"error":"bad key"}' });
    const { model: m } = model();
    await expect(m.turn(conversation, tools)).rejects.toMatchObject({ kind: "http-status", message: expect.stringMatching(/answered HTTP 401: \{"error":"bad key"\}/) });
  });
});
