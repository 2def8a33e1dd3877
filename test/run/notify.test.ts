import { createHmac } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notifyRun } from "../../src/app/notify/notify.js";
import { LocalEngine } from "../../src/engines/local/index.js";
import { SqliteStore } from "../../src/store/index.js";
import { HookServer } from "../helpers/hook.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { pipeline, runYaml, workdir } from "./helpers.js";

const site = new FixtureSite();
let body = "<p>v1</p>";
const hook = new HookServer();
const received = hook.received;
let hookUrl = "";

beforeAll(async () => {
  site.route("/page", (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Page", body)));
  await site.start();
  hookUrl = `${await hook.start()}/hook/s3cret-path`;
});
afterAll(async () => {
  await site.stop();
  await hook.stop();
});

const step = () => `  - id: page\n    scrape: { url: "${site.url}/page", formats: [markdown, { type: changeTracking, modes: [git-diff] }] }\n  - id: missing\n    continueOnError: true\n    retry: { attempts: 1 }\n    scrape: { url: "http://127.0.0.1:1/unreachable" }\n`;

describe("notify", () => {
  it("posts one signed JSON summary per run when something it listens to happened", async () => {
    const db = join(workdir(), "n.db");
    const yaml = pipeline(step(), `notify: { webhook: { url: "${hookUrl}", secret: "topsecret" }, on: [changed, new] }\n`);
    received.length = 0;
    const first = await runYaml(yaml, { db });
    if (!first.result.ok) throw new Error(JSON.stringify(first.result.diagnostics));
    expect(first.result.notify).toMatchObject({ sent: true, status: 204, attempts: 1 });
    expect(received).toHaveLength(1);
    const payload = JSON.parse(received[0]!.body);
    expect(payload).toMatchObject({ pipeline: "test", runId: first.result.runId, counts: { new: 1, changed: 0 } });
    expect(payload.pages).toEqual([expect.objectContaining({ url: `${site.url}/page`, changeStatus: "new" })]);
    expect(payload.failures).toEqual([]); // failed is not in `on`
    const expected = `sha256=${createHmac("sha256", "topsecret").update(received[0]!.body).digest("hex")}`;
    expect(received[0]!.headers["x-scrapeline-signature"]).toBe(expected);

    const same = await runYaml(yaml, { db });
    if (!same.result.ok) throw new Error("invalid");
    expect(same.result.notify).toMatchObject({ sent: false, attempts: 0 });
    expect(received).toHaveLength(1);

    body = "<p>v2</p>";
    hook.failFirst = 1;
    const changed = await runYaml(yaml, { db });
    if (!changed.result.ok) throw new Error("invalid");
    expect(changed.result.notify).toMatchObject({ sent: true, attempts: 2 });
    const diffPayload = JSON.parse(received[1]!.body);
    expect(diffPayload.pages[0]).toMatchObject({ changeStatus: "changed", diff: expect.stringContaining("+v2") });
  });

  it("gives each notification an id that a repeat keeps: the same when sent again for the same run, another for each other one", async () => {
    const db = join(workdir(), "ids.db");
    body = "<p>ids v1</p>";
    const yaml = pipeline(step(), `notify: { webhook: { url: "${hookUrl}", events: [monitor.check.completed, monitor.page] }, on: [changed, new] }\n`);
    received.length = 0;
    const first = await runYaml(yaml, { db });
    if (!first.result.ok) throw new Error("invalid");
    const [completed, page] = received.map((r) => JSON.parse(r.body));
    expect(completed.notificationId).toMatch(/^[0-9a-f]{32}$/);
    expect(page).toMatchObject({ event: "monitor.page", notificationId: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(page.notificationId).not.toBe(completed.notificationId);

    // Sent again for the same run (as after a crash, worked out from the stored run): the same ids.
    const store = new SqliteStore(db);
    try {
      await notifyRun(store, first.result.runId, first.result.pipeline.notify!, { allowPrivateNetwork: true });
    } finally {
      store.close();
    }
    expect(received.slice(2).map((r) => JSON.parse(r.body).notificationId)).toEqual([completed.notificationId, page.notificationId]);

    body = "<p>ids v2</p>";
    const next = await runYaml(yaml, { db });
    if (!next.result.ok) throw new Error("invalid");
    const ids = received.slice(4).map((r) => JSON.parse(r.body).notificationId);
    expect(ids).toHaveLength(2);
    expect(ids).not.toContain(completed.notificationId);
    expect(ids).not.toContain(page.notificationId);
  });

  it("reports failed pages when asked, and a webhook that is down never changes the run's result", async () => {
    const db = join(workdir(), "down.db");
    const yaml = pipeline(step(), `notify: { webhook: { url: "http://127.0.0.1:1/down" }, on: [failed] }\n`);
    const { result } = await runYaml(yaml, { db });
    if (!result.ok) throw new Error("invalid");
    // The run's own result (a step with a failed page), untouched by the notification failing.
    expect(result.status).toBe("failed");
    expect(result.failedSteps).toEqual(["missing"]);
    expect(result.notify).toMatchObject({ sent: false, attempts: 3 });
    expect(result.notify!.error).toMatch(/refused|connect/i);
  });

  it("goes through the fetch gate: a private webhook is refused without allowPrivateNetwork", async () => {
    const db = join(workdir(), "gate.db");
    const yaml = pipeline(`  - id: page\n    scrape: { url: "${site.url}/page", formats: [markdown, { type: changeTracking }] }\n`, `notify: { webhook: { url: "${hookUrl}" }, on: [new, changed] }\n`);
    const before = received.length;
    // The pages may be fetched (the engine allows loopback); the webhook may not.
    const engine = new LocalEngine({ allowPrivateNetwork: true });
    const engineOnly = await runYaml(yaml, { db, allowPrivateNetwork: false, engine });
    await engine.close();
    if (!engineOnly.result.ok) throw new Error("invalid");
    expect(engineOnly.result.notify).toMatchObject({ sent: false, attempts: 1 });
    expect(engineOnly.result.notify!.error).toMatch(/private|loopback|blocked/i);
    expect(received.length).toBe(before);
  });
});
