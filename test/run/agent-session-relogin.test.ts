import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { FakeLlm } from "../helpers/llm-server.js";
import { credentials, MembersSite, SECRET_KEY, sessionPipeline } from "../sessions/members-site.js";
import { runYaml, workdir } from "./helpers.js";

const llm = new FakeLlm();
let site: MembersSite;
const env = () => ({ ...process.env, ...credentials, SCRAPELINE_SECRET_KEY: SECRET_KEY, SCRAPELINE_LLM_BASE_URL: llm.url, SCRAPELINE_LLM_MODEL: "agent-model" });

beforeAll(async () => {
  site = await new MembersSite().start();
  await llm.start();
});

afterAll(async () => {
  await site.stop();
  await llm.stop();
});

const mapMessage = () => llm.requests.flatMap((r) => r.body.messages.filter((m) => m.role === "tool").map((m) => m.content)).find((t) => t.includes("URL(s) of"));

describe("an agent's map tool with a session whose kept login expired", () => {
  it("logs in again once and lists the members' pages", async () => {
    const yaml = sessionPipeline(site, `  - id: find
    session: members
    agent:
      prompt: List the members' reports
      schema: {type: object, properties: {count: {type: number}}}
`);
    const db = join(workdir(), "kept.db");
    const ask = () =>
      llm.answer(
        { toolCalls: [{ name: "map", arguments: { url: `${site.url}/members` } }] },
        { content: JSON.stringify({ data: { count: 4 } }) },
      );
    ask();
    const first = await runYaml(yaml, { env: env(), db });
    expect(first.result.ok && first.result.status).toBe("succeeded");
    expect(site.logins).toBe(1);
    expect(mapMessage()).toContain(`${site.url}/members/1`);

    site.expireAll();
    llm.requests.length = 0;
    ask();
    const { result } = await runYaml(yaml, { env: env(), db });
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    expect(result.status).toBe("succeeded");
    // The kept login was refused; the map ran again with a new one and read the members' index.
    expect(site.logins).toBe(2);
    expect(mapMessage()).toContain(`${site.url}/members/4`);
    expect(mapMessage()).not.toContain(`${site.url}/login`);
  });
});
