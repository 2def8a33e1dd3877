import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadPipelineText } from "../../src/pipeline/index.js";
import { FakeLlm } from "../helpers/llm-server.js";
import { credentials, MembersSite, SECRET_KEY, sessionPipeline } from "../sessions/members-site.js";
import { readDocuments, runYaml, readStepResult } from "./helpers.js";

const llm = new FakeLlm();
let site: MembersSite;
const env = () => ({ ...process.env, ...credentials, SCRAPELINE_SECRET_KEY: SECRET_KEY, SCRAPELINE_LLM_BASE_URL: llm.url, SCRAPELINE_LLM_MODEL: "agent-model" });
const schema = `{type: object, properties: {price: {type: number}}, required: [price]}`;
const agentStep = (session: string, body: string) => `  - id: find\n${session}    agent:\n${body.split("\n").map((l) => `      ${l}`).join("\n")}\n`;

beforeAll(async () => {
  site = await new MembersSite().start();
  // The price is only shown to a member: logged out, the page redirects to the sign-in form.
  site.addMemberPage("/members/widget", "Widget", `<p>Members pay <strong>$37.25</strong> for the widget.</p>`);
  await llm.start();
});

afterAll(async () => {
  await site.stop();
  await llm.stop();
});

const stepResult = (db: string, runId: number) => readStepResult(db, runId, "find");

const toolMessages = () => llm.requests.flatMap((r) => r.body.messages.filter((m) => m.role === "tool").map((m) => m.content));

describe("agent step with a session", () => {
  it("reads a members-only price through its scrape, map and extract tools logged in", async () => {
    llm.requests.length = 0;
    llm.answer(
      { toolCalls: [{ name: "map", arguments: { url: `${site.url}/members` } }] },
      { toolCalls: [{ name: "scrape", arguments: { url: `${site.url}/members/widget` } }] },
      { toolCalls: [{ name: "extract", arguments: { url: `${site.url}/members/widget`, schema: { type: "object", properties: { price: { type: "number", "x-selector": "strong" } }, required: ["price"] } } }] },
      { content: JSON.stringify({ data: { price: 37.25 }, sources: { price: [`${site.url}/members/widget`] } }) },
    );
    const yaml = sessionPipeline(site, agentStep("    session: members\n", `prompt: What do members pay for the widget?\nurls: ["${site.url}/members"]\nschema: ${schema}`));
    const { result, db } = await runYaml(yaml, { env: env() });
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    expect(result.status).toBe("succeeded");
    expect(site.logins).toBe(1);
    const tools = toolMessages();
    // The map read the members' index logged in: its links to the reports are there.
    expect(tools.find((t) => t.includes("URL(s) of"))).toContain(`${site.url}/members/1`);
    expect(tools.find((t) => t.includes("Signed in as ada"))).toContain("$37.25");
    expect(tools.find((t) => t.startsWith("Data read from"))).toContain('"price":37.25');
    expect(stepResult(db, result.runId)).toMatchObject({ status: "completed", data: { price: 37.25 }, sources: { price: [`${site.url}/members/widget`] } });
    const [page] = readDocuments(db, result.runId, "find");
    expect(page?.document.markdown).toContain("$37.25");
    // Every members' request carried the session's cookie.
    expect(site.cookiesSeen.length).toBeGreaterThanOrEqual(3);
    for (const cookie of site.cookiesSeen) expect(cookie).toMatch(/sid=[0-9a-f]{32}/);
  });

  it("does not follow a link that would sign its session out, and tells the model so", async () => {
    llm.requests.length = 0;
    const signOuts = site.signOuts;
    llm.answer(
      { toolCalls: [{ name: "scrape", arguments: { url: `${site.url}/logout` } }] },
      { toolCalls: [{ name: "scrape", arguments: { url: `${site.url}/members/widget` } }] },
      { content: JSON.stringify({ data: { price: 37.25 }, sources: { price: [`${site.url}/members/widget`] } }) },
    );
    const yaml = sessionPipeline(site, agentStep("    session: members\n", `prompt: What do members pay for the widget?\nschema: ${schema}`));
    const { result } = await runYaml(yaml, { env: env() });
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    expect(result.status).toBe("succeeded");
    expect(site.signOuts).toBe(signOuts);
    const tools = [...new Set(toolMessages())];
    expect(tools[0]).toBe(`Not read: ${site.url}/logout would sign session "members" out. Choose another page.`);
    expect(tools[1]).toContain("$37.25");
  });

  it("without the session the same page shows only the sign-in form", async () => {
    llm.requests.length = 0;
    llm.answer(
      { toolCalls: [{ name: "scrape", arguments: { url: `${site.url}/members/widget` } }] },
      { content: JSON.stringify({ data: { price: 0 } }) },
    );
    const yaml = sessionPipeline(site, agentStep("", `prompt: What do members pay for the widget?\nschema: ${schema}`));
    const { result } = await runYaml(yaml, { env: env() });
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    const tools = toolMessages();
    expect(tools[0]).toContain("Sign in");
    expect(tools[0]).not.toContain("$37.25");
  });

  it("is accepted on an agent step in the file, checked like other steps' sessions, and refused on the firecrawl engine", () => {
    const yaml = (session: string, extra = "") => sessionPipeline(site, agentStep(`    session: ${session}\n`, "prompt: Price"), extra);
    const loaded = loadPipelineText("p.yaml", yaml("members"), { env: credentials });
    expect(loaded.diagnostics.map((d) => d.message)).toEqual([]);
    expect(loaded.pipeline?.steps[0]).toMatchObject({ kind: "agent", session: "members" });
    const unknown = loadPipelineText("p.yaml", yaml("member"), { env: credentials });
    expect(unknown.diagnostics.find((d) => d.code === "unknown-session")).toMatchObject({ file: "p.yaml", line: 16, column: 14, hint: 'did you mean "members"?' });
    const remote = loadPipelineText("p.yaml", yaml("members", "engine: { kind: firecrawl }\n"), { env: credentials });
    expect(remote.diagnostics.find((d) => d.code === "session-on-firecrawl")).toMatchObject({ line: 17, message: expect.stringContaining(`step "find" uses session "members"`) });
  });
});
