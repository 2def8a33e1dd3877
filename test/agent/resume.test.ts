import { describe, expect, it } from "vitest";
import { runAgent } from "../../src/agent/index.js";
import type { AgentRequest, AgentTools, AgentTranscriptEntry } from "../../src/core/index.js";
import { scripted } from "./scripted.js";


function pages(site: Record<string, string>): AgentTools & { called: string[] } {
  const called: string[] = [];
  return {
    available: ["scrape"],
    called,
    estimate: () => 1,
    async call(_name, args) {
      called.push(String(args.url));
      return { content: site[String(args.url)] ?? "nothing", credits: 1, urls: [String(args.url)] };
    },
  };
}

const request: AgentRequest = { prompt: "Find the price", strictConstrainToURLs: false, maxCredits: 2500, maxSteps: 4 };
const a = JSON.stringify({ url: "https://shop.test/a" });
const b = JSON.stringify({ url: "https://shop.test/b" });
/** Turn 1 scraped /a; turn 2 asked for /a again (refused) and /b, and the run stopped before /b was read. */
const earlier: AgentTranscriptEntry[] = [
  { type: "model", turn: 1, content: "", toolCalls: [{ name: "scrape", arguments: a }], tokens: 30 },
  { type: "tool", turn: 1, name: "scrape", arguments: a, output: "Page a: see b", credits: 1, urls: ["https://shop.test/a"] },
  { type: "model", turn: 2, content: "", toolCalls: [{ name: "scrape", arguments: a }, { name: "scrape", arguments: b }], tokens: 30 },
  { type: "refused", turn: 2, name: "scrape", arguments: a, reason: "you already made this exact call" },
];

describe("the agent resumed from a transcript", () => {
  it("makes the calls the stop left unrun, then goes on with the turns and credits it had", async () => {
    const model = scripted({ content: '{"data": {"price": 7}}' });
    const tools = pages({ "https://shop.test/b": "Price: 7" });
    const result = await runAgent({ request, model, tools, signal: new AbortController().signal, earlier });
    expect(tools.called).toEqual(["https://shop.test/b"]);
    expect(model.seen[0]!.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "assistant", "tool", "tool"]);
    expect(model.seen[0]!.slice(-2).map((m) => m.content)).toEqual(["Refused: you already made this exact call", "Price: 7"]);
    // The sources know the pages read before the stop; the turn numbers and spend go on.
    expect(result).toMatchObject({ status: "completed", data: { price: 7 }, sources: { price: ["https://shop.test/b"] }, tokensUsed: 90, creditsUsed: 2 + 6 });
    expect(result.transcript.map((e) => `${e.type}:${e.turn}`)).toEqual(["model:1", "tool:1", "model:2", "refused:2", "tool:2", "model:3"]);
  });

  it("counts the earlier turns against maxSteps and the earlier calls as made", async () => {
    const model = scripted({ calls: [["scrape", { url: "https://shop.test/a" }]] }, { calls: [["scrape", { url: "https://shop.test/c" }]] }, { content: "{}" });
    const tools = pages({});
    const result = await runAgent({ request, model, tools, signal: new AbortController().signal, earlier });
    // /b (left unrun), then /a is a third repeat: the loop stops it, with turns 3 and 4 of 4.
    expect(tools.called).toEqual(["https://shop.test/b"]);
    expect(result.status).toBe("partial");
    expect(result.error).toMatch(/repeated the call scrape .* 3 times/);
    expect(model.seen).toHaveLength(2);
  });
});
