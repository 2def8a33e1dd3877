import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runChild, startCli } from "../cli/child.js";
import { SqliteStore } from "../../src/store/index.js";
import { FakeLlm } from "../helpers/llm-server.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { pipeline, workdir } from "./helpers.js";

// The built CLI (npm run build) as a child process, against a scripted model and a fixture site on loopback.
const site = new FixtureSite();
const llm = new FakeLlm();
beforeAll(async () => {
  site
    .page("/", htmlPage("Shop", `<p>Welcome to the shop.</p><a href="/catalog">Catalog</a>`))
    .page("/catalog", htmlPage("Catalog", `<p>Our range.</p><a href="/catalog/widget">Widget</a>`))
    .page("/catalog/widget", htmlPage("Widget", `<p>The widget costs <strong>$42.50</strong>.</p>`));
  await site.start();
  await llm.start();
});
afterAll(async () => {
  await site.stop();
  await llm.stop();
});

function stored(db: string, runId: number) {
  const store = new SqliteStore(db);
  try {
    return { result: JSON.parse(store.stepResult(runId, "find") ?? "null"), urls: [...store.documents(runId, "find")].map((d) => d.url).sort(), runCredits: store.getRun(runId)?.creditsUsed };
  } finally {
    store.close();
  }
}

describe("agent steps resumed", () => {
  it("goes on from the stored transcript after Ctrl-C: the model sees the earlier turns and no page is fetched twice", async () => {
    const dir = workdir();
    const file = join(dir, "agent.yaml");
    const db = join(dir, "agent.db");
    writeFileSync(file, pipeline(`  - id: find\n    agent: { prompt: "Widget price", urls: ["${site.url}/"], schema: { type: object, properties: { price: { type: number } }, required: [price] } }\n`));
    const env = { SCRAPELINE_LLM_BASE_URL: llm.url, SCRAPELINE_LLM_MODEL: "m" };
    llm.requests.length = 0;
    llm.answer(
      { toolCalls: [{ name: "scrape", arguments: { url: `${site.url}/` } }], tokens: 30 },
      { toolCalls: [{ name: "scrape", arguments: { url: `${site.url}/catalog` } }], tokens: 30 },
      { hang: true },
    );
    const interrupted = startCli(["run", file, "--db", db, "--allow-private-network"], { env });
    // The third model request carries the second tool call's result: stop the run there.
    while (llm.requests.length < 3) await new Promise((r) => setTimeout(r, 20));
    interrupted.child.kill("SIGINT");
    const finished = await interrupted.done;
    expect(finished.code).toBe(130);
    const before = stored(db, 1);
    expect(before.result.transcript.map((e: { type: string }) => e.type)).toEqual(["model", "tool", "model", "tool", "stopped"]);
    expect(before.urls).toEqual([`${site.url}/`, `${site.url}/catalog`]);

    llm.requests.length = 0;
    llm.answer(
      { toolCalls: [{ name: "scrape", arguments: { url: `${site.url}/catalog/widget` } }], tokens: 30 },
      { content: JSON.stringify({ data: { price: 42.5 }, sources: { price: [`${site.url}/catalog/widget`] } }), tokens: 30 },
    );
    const resumed = await runChild(["run", file, "--db", db, "--allow-private-network", "--resume"], { env });
    expect(resumed.code, resumed.stderr).toBe(0);

    // The first request of the resumed run holds the conversation so far: both calls and their pages.
    const first = llm.requests[0]!.body.messages;
    expect(first.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "assistant", "tool"]);
    expect(first[2]!.tool_calls![0]!.function).toEqual({ name: "scrape", arguments: JSON.stringify({ url: `${site.url}/` }) });
    expect(first[3]).toMatchObject({ tool_call_id: first[2]!.tool_calls![0]!.id, content: expect.stringContaining("Welcome to the shop.") });
    expect(first[4]!.tool_calls![0]!.function.arguments).toBe(JSON.stringify({ url: `${site.url}/catalog` }));
    expect(first[5]).toMatchObject({ tool_call_id: first[4]!.tool_calls![0]!.id, content: expect.stringContaining("Our range.") });
    expect(llm.requests).toHaveLength(2);

    // Each page was fetched once over both attempts.
    expect([site.hits.get("/"), site.hits.get("/catalog"), site.hits.get("/catalog/widget")]).toEqual([1, 1, 1]);
    const after = stored(db, 1);
    expect(after.urls).toEqual([`${site.url}/`, `${site.url}/catalog`, `${site.url}/catalog/widget`]);
    // Four model turns of 30 tokens (120 = 8 credits) and three pages; the earlier turns keep their numbers, and the stop stays in the transcript.
    expect(after.result).toMatchObject({ status: "completed", data: { price: 42.5 }, tokensUsed: 120, creditsUsed: 3 + 8 });
    expect(after.result.transcript.map((e: { type: string; turn: number }) => `${e.type}:${e.turn}`)).toEqual(["model:1", "tool:1", "model:2", "tool:2", "stopped:3", "model:3", "tool:3", "model:4"]);
    const show = await runChild(["show", "latest", "--db", db]);
    expect(show.stdout).toMatch(/find\s+agent\s+succeeded\s+3\s/);
    expect(show.stdout).toContain("find: agent completed, 120 token(s), 11 credit(s)");
    // The run's ledger counts each page and model token once over both attempts.
    expect(before.runCredits).toBe(2 + 4);
    expect(after.runCredits).toBe(3 + 8);
  });
});

describe("agent steps resumed in process", () => {
  it("reads a page stored before the stop back from the database when the model scrapes it again", async () => {
    const { runYaml } = await import("./helpers.js");
    const yaml = pipeline(`  - id: find\n    agent: { prompt: "Widget price" }\n`);
    const env = { SCRAPELINE_LLM_BASE_URL: llm.url, SCRAPELINE_LLM_MODEL: "m" };
    const stop = new AbortController();
    llm.requests.length = 0;
    llm.answer({ toolCalls: [{ name: "scrape", arguments: { url: `${site.url}/catalog/widget` } }], tokens: 30 });
    // The second model turn is never answered: the run is stopped while waiting for it.
    llm.fallback = () => {
      stop.abort();
      return { hang: true };
    };
    const hits = site.hits.get("/catalog/widget") ?? 0;
    const first = await runYaml(yaml, { env, stop: stop.signal });
    llm.fallback = undefined;
    if (!first.result.ok) throw new Error("invalid");
    expect(first.result.status).not.toBe("succeeded");
    expect(site.hits.get("/catalog/widget")).toBe(hits + 1);

    llm.requests.length = 0;
    // The same page asked for another way (not a repeat of the call): read back, not fetched.
    llm.answer(
      { toolCalls: [{ name: "scrape", arguments: { url: `${site.url}/catalog/widget`, again: true } }], tokens: 30 },
      { content: JSON.stringify({ data: { price: 42.5 } }), tokens: 30 },
    );
    const second = await runYaml(yaml, { env, db: first.db, resume: true });
    if (!second.result.ok) throw new Error("invalid");
    expect(second.result.status).toBe("succeeded");
    expect(site.hits.get("/catalog/widget")).toBe(hits + 1);
    expect(llm.requests[1]!.body.messages.filter((m) => m.role === "tool").map((m) => m.content.includes("$42.50"))).toEqual([true, true]);
    const { result } = stored(first.db, first.result.runId);
    expect(result).toMatchObject({ status: "completed", sources: { price: [`${site.url}/catalog/widget`] } });
    // Read back at no cost: the one page, and 90 tokens (6 credits).
    expect(result.transcript.filter((e: { type: string }) => e.type === "tool").map((e: { credits: number }) => e.credits)).toEqual([1, 0]);
    expect(result.creditsUsed).toBe(1 + 6);
  });
});
