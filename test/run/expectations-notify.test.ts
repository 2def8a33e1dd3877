import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HookServer } from "../helpers/hook.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { runYaml, workdir } from "./helpers.js";

const site = new FixtureSite();
let version = "v1";
const hook = new HookServer();
let hookUrl = "";

beforeAll(async () => {
  for (const path of ["/p1", "/p2"]) site.route(path, (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Page", `<p>${version} of ${path}</p>`)));
  await site.start();
  hookUrl = `${await hook.start()}/hook`;
});
afterAll(async () => {
  await site.stop();
  await hook.stop();
});

const yaml = () => `version: 1
name: drift
notify: { channels: [{ webhook: { url: "${hookUrl}", events: [monitor.page, monitor.check.completed, failed] } }], on: [changed, failed] }
steps:
  - id: pages
    scrape: { urls: ["${site.url}/p1", "${site.url}/p2"], formats: [markdown, { type: changeTracking, modes: [git-diff] }] }
    expect:
      changed: { maxShare: 0.3 }
`;

describe("a broken expectation in a notified run", () => {
  it("is told as a failure (the recipe broke), and its pages' changes are not told as content changes", async () => {
    const db = join(workdir(), "drift.db");
    const first = await runYaml(yaml(), { db });
    expect(first.result.ok && first.result.status).toBe("succeeded");
    hook.received.length = 0;

    version = "v2";
    const second = await runYaml(yaml(), { db });
    expect(second.result.ok && second.result.status).toBe("failed");
    expect(second.result.ok && second.result.cause).toBe("expectation");
    const bodies = hook.received.map((r) => JSON.parse(r.body));
    const failed = bodies.find((b) => b.event === "failed");
    expect(failed).toMatchObject({ pipeline: "drift", status: "failed", expectations: [{ stepId: "pages", name: "changed", line: 8, column: 7, problems: ["100 % changed (2 of 2), expected at most 30 %"] }] });
    // The two changed pages are counted, not told page by page.
    expect(bodies.some((b) => b.event === "monitor.page")).toBe(false);
    const completed = bodies.find((b) => b.event === "monitor.check.completed");
    expect(completed.counts.changed).toBe(2);
    expect(completed.pages).toEqual([]);
  });
});
