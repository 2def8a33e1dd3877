import { describe, expect, it } from "vitest";
import { runAgent, withinUrls } from "../../src/agent/index.js";
import type { AgentModel, AgentRequest, AgentToolName, AgentTools } from "../../src/core/index.js";
import { ScrapelineError } from "../../src/core/index.js";
import { scripted } from "./scripted.js";


/** Tools over a map of pages, each page 1 credit. */
function pages(site: Record<string, string>, available: AgentToolName[] = ["map", "scrape"]): AgentTools & { called: string[] } {
  const called: string[] = [];
  return {
    available,
    called,
    estimate: () => 1,
    async call(name, args) {
      called.push(`${name} ${String(args.url)}`);
      const url = String(args.url);
      if (name === "map") return { content: Object.keys(site).join("\n"), credits: 1 };
      if (!(url in site)) throw new ScrapelineError("http-status", `${url} answered 404`);
      return { content: site[url]!, credits: 1, urls: [url] };
    },
  };
}

const request = (extra: Partial<AgentRequest> = {}): AgentRequest => ({ prompt: "Find the price", strictConstrainToURLs: false, maxCredits: 2500, maxSteps: 30, ...extra });
const run = (model: AgentModel, tools: AgentTools, extra: Partial<AgentRequest> = {}, signal = new AbortController().signal) => runAgent({ request: request(extra), model, tools, signal });

describe("the agent loop", () => {
  it("feeds tool output back and ends with the answer, its sources and credits", async () => {
    const model = scripted({ calls: [["scrape", { url: "https://shop.test/a" }]] }, { content: '```json\n{"data": {"price": 3}, "sources": {"price": ["https://shop.test/a"]}}\n```' });
    const result = await run(model, pages({ "https://shop.test/a": "price: 3" }), { schema: { type: "object", properties: { price: { type: "number" } } } });
    expect(result).toMatchObject({ status: "completed", data: { price: 3 }, sources: { price: ["https://shop.test/a"] }, tokensUsed: 60, creditsUsed: 1 + 4 });
    expect(model.seen[1]!.at(-1)).toMatchObject({ role: "tool", content: "price: 3" });
  });

  it("gives a field the model named no source for the pages that hold its value", async () => {
    const model = scripted(
      { calls: [["scrape", { url: "https://shop.test/a" }], ["scrape", { url: "https://shop.test/b" }]] },
      { content: '{"data": {"price": 3.5, "name": "Widget", "colour": "teal"}, "sources": {"name": ["https://shop.test/b"]}}' },
    );
    const result = await run(model, pages({ "https://shop.test/a": "Widget, now 3.50", "https://shop.test/b": "About the Widget" }));
    expect(result.sources).toEqual({ name: ["https://shop.test/b"], price: ["https://shop.test/a"] });
  });

  it("shortens the oldest tool results to fit the model's context, and lets the model read them again", async () => {
    const long = (c: string) => c.repeat(5000);
    const model = Object.assign(
      scripted(
        { calls: [["scrape", { url: "https://shop.test/a" }]] },
        { calls: [["scrape", { url: "https://shop.test/b" }]] },
        { calls: [["scrape", { url: "https://shop.test/a" }]] },
        { content: "{}" },
      ),
      { contextTokens: 2000 },
    );
    const tools = pages({ "https://shop.test/a": long("a"), "https://shop.test/b": long("b") });
    const result = await run(model, tools);
    expect(result.status).toBe("completed");
    const third = model.seen[2]!.filter((m) => m.role === "tool").map((m) => m.content);
    expect(third[0]).toMatch(/^a{400}\n\[… shortened to keep the conversation within the model's context/);
    expect(third[1]).toBe(long("b"));
    expect(tools.called).toEqual(["scrape https://shop.test/a", "scrape https://shop.test/b", "scrape https://shop.test/a"]);
    // The transcript keeps every result whole.
    expect(result.transcript.filter((e) => e.type === "tool").map((e) => (e as { output: string }).output.length)).toEqual([5000, 5000, 5000]);
  });

  it("answers the calls a loop left unrun before asking for the closing answer", async () => {
    const same: [string, unknown] = ["scrape", { url: "https://shop.test/a" }];
    const model = scripted({ calls: [same] }, { calls: [same] }, { calls: [same, ["scrape", { url: "https://shop.test/b" }]] }, { content: '{"data": {"a": 1}}' });
    const result = await run(model, pages({ "https://shop.test/a": "a", "https://shop.test/b": "b" }));
    expect(result).toMatchObject({ status: "partial", data: { a: 1 } });
    const closing = model.seen[3]!;
    const lastAssistant = closing.map((m) => m.role).lastIndexOf("assistant");
    expect(closing.slice(lastAssistant + 1)).toEqual([
      { role: "tool", toolCallId: expect.any(String), name: "scrape", content: expect.stringMatching(/^Not run: the model repeated the call scrape/) },
      { role: "tool", toolCallId: expect.any(String), name: "scrape", content: expect.stringMatching(/^Not run: /) },
      { role: "user", content: expect.stringMatching(/^Stop: /) },
    ]);
  });

  it("refuses unknown tools and arguments that are not JSON, and tells the model why", async () => {
    const model = scripted({ calls: [["browse", { url: "x" }], ["scrape", "{not json"]] }, { content: '{"price": 1}' });
    const result = await run(model, pages({}));
    expect(result.status).toBe("completed");
    expect(result.data).toEqual({ price: 1 });
    const told = model.seen[1]!.filter((m) => m.role === "tool").map((m) => m.content);
    expect(told).toEqual(['Refused: there is no tool "browse"; the tools are map, scrape', "Refused: the arguments are not valid JSON"]);
  });

  it("gives a failing tool's error to the model and goes on", async () => {
    const model = scripted({ calls: [["scrape", { url: "https://shop.test/missing" }]] }, { content: '{"data": null}' });
    const result = await run(model, pages({}));
    expect(result.status).toBe("completed");
    expect(result.transcript[1]).toMatchObject({ type: "tool", output: "failed: https://shop.test/missing answered 404", credits: 0 });
  });

  it("does not offer search under strictConstrainToURLs, and allows pages under the given URLs", async () => {
    const model = scripted({ calls: [["scrape", { url: "https://shop.test/docs/deep/page" }]] }, { content: "{}" });
    await run(model, pages({ "https://shop.test/docs/deep/page": "ok" }, ["search", "map", "scrape"]), { urls: ["https://shop.test/docs"], strictConstrainToURLs: true });
    expect(model.seen[0]).toBeDefined();
    const tools = pages({}, ["search", "map", "scrape"]);
    const model2 = scripted({ content: "{}" });
    let offered: string[] = [];
    await runAgent({ request: request({ urls: ["https://shop.test/docs"], strictConstrainToURLs: true }), model: { turn: async (m, t, s) => ((offered = t.map((x) => x.name)), model2.turn(m, t, s)) }, tools, signal: new AbortController().signal });
    expect(offered).toEqual(["map", "scrape"]);
    expect(withinUrls("https://shop.test/docs/deep/page", ["https://shop.test/docs"])).toBe(true);
    expect(withinUrls("https://shop.test/docs", ["https://shop.test/docs/"])).toBe(false);
    expect(withinUrls("https://shop.test/docsextra", ["https://shop.test/docs"])).toBe(false);
    expect(withinUrls("https://other.test/docs/a", ["https://shop.test/docs"])).toBe(false);
    expect(withinUrls("https://shop.test/anything", ["https://shop.test/"])).toBe(true);
  });

  it("ends partial when the run's budget stops a tool", async () => {
    const tools: AgentTools = { available: ["scrape"], estimate: () => 1, call: async () => Promise.reject(new ScrapelineError("budget", "the run's budget of 5 credits is spent")) };
    const result = await run(scripted({ calls: [["scrape", { url: "https://shop.test/a" }]] }), tools);
    expect(result).toMatchObject({ status: "partial", error: "the run's budget of 5 credits is spent" });
  });

  it("ends failed, with the transcript so far, when the signal aborts", async () => {
    const controller = new AbortController();
    const tools: AgentTools = {
      available: ["scrape"],
      estimate: () => 1,
      call: async () => {
        controller.abort(new ScrapelineError("timeout", "the step's timeout of 50 ms passed"));
        throw new ScrapelineError("cancelled", "stopped");
      },
    };
    const result = await run(scripted({ calls: [["scrape", { url: "https://shop.test/a" }]] }), tools, {}, controller.signal);
    expect(result).toMatchObject({ status: "failed", errorKind: "timeout", error: "stopped: the step's timeout of 50 ms passed" });
    expect(result.transcript.map((e) => e.type)).toEqual(["model", "stopped"]);
  });

  it("checks maxCredits before a tool call whose estimate would pass it", async () => {
    const tools: AgentTools = { available: ["scrape"], estimate: () => 10, call: async () => ({ content: "x", credits: 10 }) };
    const result = await run(scripted({ calls: [["scrape", { url: "https://shop.test/a" }]], tokens: 15 }), tools, { maxCredits: 10 });
    expect(result).toMatchObject({ status: "partial", creditsUsed: 1, error: expect.stringMatching(/^maxCredits reached: 1 of 10 credit\(s\) spent; no closing answer: /) });
  });
});
