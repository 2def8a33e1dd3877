import { describe, expect, it } from "vitest";
import { runAgent } from "../../src/agent/index.js";
import type { AgentMessage, AgentModel, AgentRequest, AgentToolSpec, AgentTools, AgentTurn } from "../../src/core/index.js";
import { ScrapelineError } from "../../src/core/index.js";

/** A model that plays turns in order and keeps what it was sent, tools included. */
function scripted(...turns: Array<Partial<AgentTurn> & { calls?: Array<[string, unknown]> }>): AgentModel & { seen: Array<{ messages: AgentMessage[]; tools: AgentToolSpec[] }> } {
  const seen: Array<{ messages: AgentMessage[]; tools: AgentToolSpec[] }> = [];
  let n = 0;
  return {
    seen,
    async turn(messages, tools) {
      seen.push({ messages: structuredClone([...messages]), tools: [...tools] });
      const next = turns.shift();
      if (!next) throw new ScrapelineError("bad-content", "script ran out");
      const toolCalls = (next.calls ?? []).map(([name, args]) => ({ id: `c${++n}`, name, arguments: JSON.stringify(args) }));
      return { content: next.content ?? "", toolCalls, tokens: next.tokens ?? 30 };
    },
  };
}

/** Two pages: /a costs 1 credit, /b is estimated at 500 (a page the budget cannot take). */
const tools = (): AgentTools & { called: string[] } => {
  const called: string[] = [];
  return {
    available: ["scrape"],
    called,
    estimate: (_name, args) => (String(args.url).endsWith("/b") ? 500 : 1),
    async call(_name, args) {
      called.push(String(args.url));
      return { content: "The widget costs 42.50 dollars.", credits: 1, urls: [String(args.url)] };
    },
  };
};

const schema = { type: "object", properties: { price: { type: "number" } }, required: ["price"] };
const request = (maxCredits: number): AgentRequest => ({ prompt: "Find the widget's price", schema, strictConstrainToURLs: false, maxCredits, maxSteps: 30 });
const script = () =>
  scripted(
    { calls: [["scrape", { url: "https://shop.test/a" }]] },
    { calls: [["scrape", { url: "https://shop.test/b" }]] },
    { content: '{"data": {"price": 42.5}, "sources": {"price": ["https://shop.test/a"]}}' },
  );

describe("the agent at maxCredits", () => {
  it("asks once, without tools, for the answer from what it read when one bounded turn fits", async () => {
    const model = script();
    const kit = tools();
    const result = await runAgent({ request: request(100), model, tools: kit, signal: new AbortController().signal });
    expect(result).toMatchObject({ status: "partial", data: { price: 42.5 }, sources: { price: ["https://shop.test/a"] } });
    expect(kit.called).toEqual(["https://shop.test/a"]);
    expect(model.seen).toHaveLength(3);
    const closing = model.seen[2]!;
    expect(closing.tools).toEqual([]);
    expect(closing.messages.at(-1)).toMatchObject({ role: "user", content: expect.stringMatching(/^Stop: maxCredits reached: 5 of 100 credit\(s\) spent\. Do not call tools\./) });
    // The call that did not fit is answered, as the tool-calling API requires.
    expect(closing.messages.some((m) => m.role === "tool" && m.content.startsWith("Not run: maxCredits reached"))).toBe(true);
    const stop = result.transcript.at(-1)!;
    expect(stop).toMatchObject({ type: "stopped", reason: expect.stringMatching(/^maxCredits reached: 5 of 100 credit\(s\) spent; asked once, without tools, for the answer from what it has read \(about \d+ token\(s\), \d+ credit\(s\), within the 95 left\)$/) });
    expect(result.transcript.at(-2)).toMatchObject({ type: "model", toolCalls: [] });
    expect(result.error).toBe((stop as { reason: string }).reason);
    expect(result.creditsUsed).toBeLessThanOrEqual(100);
  });

  it("keeps data null and says so when the closing turn cannot fit in what is left", async () => {
    const model = script();
    const result = await runAgent({ request: request(30), model, tools: tools(), signal: new AbortController().signal });
    expect(result).toMatchObject({ status: "partial", data: null, sources: {}, creditsUsed: 5 });
    expect(model.seen).toHaveLength(2);
    expect(result.transcript.at(-1)).toMatchObject({ type: "stopped", reason: expect.stringMatching(/^maxCredits reached: 5 of 30 credit\(s\) spent; no closing answer: one turn without tools \(about (\d+) token\(s\), (\d+) credit\(s\)\) does not fit in the 25 credit\(s\) left$/) });
    const [, estimate, cost] = /about (\d+) token\(s\), (\d+) credit/.exec(result.error!)!;
    expect(Number(cost)).toBeGreaterThan(25);
    expect(Math.ceil(Number(estimate) / 15)).toBeGreaterThanOrEqual(Number(cost) - 1);
  });

  it("asks for nothing once maxCredits is spent", async () => {
    const model = scripted({ calls: [["scrape", { url: "https://shop.test/a" }]], tokens: 300 }, { content: "{}" });
    const result = await runAgent({ request: request(10), model, tools: tools(), signal: new AbortController().signal });
    expect(result).toMatchObject({ status: "partial", data: null });
    expect(model.seen).toHaveLength(1);
    expect(result.error).toMatch(/^maxCredits reached: 20 of 10 credit\(s\) spent; no closing answer: .* does not fit in the 0 credit\(s\) left$/);
  });

  it("asks for the answer while it can still be paid, rather than spending on until it cannot", async () => {
    // A model that reads one cheap page after another while it has tools, and answers when it has none.
    const reader = (): AgentModel => {
      let n = 0;
      return {
        async turn(_messages, offered) {
          if (offered.length === 0) return { content: '{"data": {"price": 42.5}, "sources": {"price": ["https://shop.test/a1"]}}', toolCalls: [], tokens: 30 };
          n++;
          return { content: "", toolCalls: [{ id: `c${n}`, name: "scrape", arguments: JSON.stringify({ url: `https://shop.test/a${n}` }) }], tokens: 30 };
        },
      };
    };
    const kit = tools();
    const result = await runAgent({ request: request(60), model: reader(), tools: kit, signal: new AbortController().signal });
    expect(result).toMatchObject({ status: "partial", data: { price: 42.5 } });
    expect(result.error).toMatch(/^maxCredits nearly reached: \d+ of 60 credit\(s\) spent, and another turn with tools would leave too little for the closing answer; asked once, without tools/);
    expect(kit.called).toEqual(["https://shop.test/a1"]);
    expect(result.creditsUsed).toBeLessThanOrEqual(60);
  });
});

