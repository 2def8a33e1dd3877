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
  site.page("/", htmlPage("Shop", `<a href="/widget">Widget</a>`)).page("/widget", htmlPage("Widget", `<p>Price: $42.50</p>`));
  await site.start();
  await llm.start();
});
afterAll(async () => {
  await site.stop();
  await llm.stop();
});

describe("agent steps through the CLI", () => {
  it("run, show prints the transcript, export --step writes it", async () => {
    const dir = workdir();
    const file = join(dir, "agent.yaml");
    const db = join(dir, "agent.db");
    writeFileSync(file, pipeline(`  - id: find\n    agent: { prompt: "Widget price", urls: ["${site.url}/"], schema: { type: object, properties: { price: { type: number } } } }\n`));
    llm.answer(
      { toolCalls: [{ name: "scrape", arguments: { url: `${site.url}/` } }], tokens: 90 },
      { toolCalls: [{ name: "scrape", arguments: { url: `${site.url}/elsewhere-missing` } }], tokens: 90 },
      { toolCalls: [{ name: "scrape", arguments: { url: `${site.url}/widget` } }], tokens: 90 },
      { content: JSON.stringify({ data: { price: 42.5 }, sources: { price: [`${site.url}/widget`] } }), tokens: 90 },
    );
    const env = { SCRAPELINE_LLM_BASE_URL: llm.url, SCRAPELINE_LLM_MODEL: "m", SCRAPELINE_LLM_API_KEY: "sk-never-printed" };
    const run = await runChild(["run", file, "--db", db, "--allow-private-network"], { env });
    expect(run.code, run.stderr).toBe(0);

    const show = await runChild(["show", "latest", "--db", db]);
    expect(show.stdout).toContain("find: agent completed, 360 token(s), 27 credit(s)");
    expect(show.stdout).toContain('  data: {"price":42.5}');
    expect(show.stdout).toContain(`  source of price: ${site.url}/widget`);
    expect(show.stdout).toContain(`[1] model (90 token(s)) calls scrape {"url":"${site.url}/"}`);
    expect(show.stdout).toMatch(/\[3\] scrape \{"url":"http:\/\/127\.0\.0\.1:\d+\/widget"\} → 1 credit\(s\): # Widget URL: .*Price: \$42\.50/);
    expect(show.stdout).toMatch(/\[2\] scrape .*elsewhere-missing.* → 1 credit\(s\): URL: .* Status: 404 \(an error page\)/);
    expect(show.stdout).toContain('[4] model (90 token(s)) answers: {"data":{"price":42.5}');
    expect(`${run.stdout}${run.stderr}${show.stdout}`).not.toContain("sk-never-printed");

    const json = await runChild(["export", "--db", db, "--step", "find", "--format", "json"]);
    const exported = JSON.parse(json.stdout);
    expect(exported).toMatchObject({ status: "completed", data: { price: 42.5 }, creditsUsed: 27 });
    expect(exported.transcript).toHaveLength(7);

    const jsonl = await runChild(["export", "--db", db, "--step", "find", "--format", "jsonl"]);
    const rows = jsonl.stdout.trim().split("\n").map((l) => JSON.parse(l));
    expect(rows.map((r) => r.type)).toEqual(["model", "tool", "model", "tool", "model", "tool", "model"]);
    expect(rows[0]).toMatchObject({ turn: 1, toolCalls: `scrape {"url":"${site.url}/"}`, tokens: 90 });

    const plan = await runChild(["plan", file, "--format", "json"]);
    expect(JSON.parse(plan.stdout).steps[0].estimate).toMatchObject({ credits: 2500, exact: false });
  });

  it("keeps the transcript so far when the process is killed mid-agent, and Ctrl-C stops the agent", async () => {
    const dir = workdir();
    const file = join(dir, "agent.yaml");
    const db = join(dir, "agent.db");
    writeFileSync(file, pipeline(`  - id: find\n    agent: { prompt: "Widget price" }\n`));
    const env = { SCRAPELINE_LLM_BASE_URL: llm.url, SCRAPELINE_LLM_MODEL: "m" };
    const waitForRequests = async (n: number) => {
      while (llm.requests.length < n) await new Promise((r) => setTimeout(r, 20));
    };
    llm.requests.length = 0;
    llm.answer({ toolCalls: [{ name: "scrape", arguments: { url: `${site.url}/widget` } }], tokens: 30 }, { hang: true });
    const killed = startCli(["run", file, "--db", db, "--allow-private-network"], { env });
    await waitForRequests(2);
    killed.child.kill("SIGKILL");
    await killed.done;
    const store = new SqliteStore(db);
    const kept = JSON.parse(store.stepResult(1, "find") ?? "null");
    store.close();
    expect(kept).toMatchObject({ status: "partial", error: "the run stopped before the agent finished", tokensUsed: 30, creditsUsed: 1 + 2 });
    expect(kept.transcript.map((e: { type: string }) => e.type)).toEqual(["model", "tool"]);

    llm.requests.length = 0;
    llm.answer({ toolCalls: [{ name: "scrape", arguments: { url: `${site.url}/widget` } }], tokens: 30 }, { hang: true });
    const interrupted = startCli(["run", file, "--db", db, "--allow-private-network"], { env });
    await waitForRequests(2);
    interrupted.child.kill("SIGINT");
    const finished = await interrupted.done;
    expect(finished.code).toBe(130);
    const show = await runChild(["show", "latest", "--db", db]);
    expect(show.stdout).toMatch(/find\s+agent\s+cancelled/);
    expect(show.stdout).toMatch(/find: agent failed, 30 token\(s\), 3 credit\(s\): stopped: the run was stopped/);

    // --resume goes on from the interrupted conversation; what the first attempt stored stays.
    llm.answer({ content: JSON.stringify({ data: { price: 42.5 } }), tokens: 30 });
    const resumed = await runChild(["run", file, "--db", db, "--allow-private-network", "--resume"], { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    const after = await runChild(["show", "latest", "--db", db]);
    expect(after.stdout).toMatch(/find\s+agent\s+succeeded\s+1\s/);
    // Both attempts' turns (30 tokens each) and the page: 60 tokens = 4 credits, + 1.
    expect(after.stdout).toContain('find: agent completed, 60 token(s), 5 credit(s)');
  });

  it("reports a bad agent body at its place in the file", async () => {
    const dir = workdir();
    const file = join(dir, "bad.yaml");
    writeFileSync(file, pipeline(`  - id: find\n    agent:\n      prompt: "x"\n      strictConstrainToURLs: true\n      maxSteps: 0\n`));
    const run = await runChild(["validate", file]);
    expect(run.code).toBe(2);
    const out = `${run.stdout}${run.stderr}`;
    expect(out).toMatch(/strictConstrainToURLs in agent step "find" needs urls/);
    expect(out).toMatch(/bad\.yaml:8:\d+/);
    expect(out).toMatch(/maxSteps/);
  });
});
