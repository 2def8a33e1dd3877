// serve's /v2/monitor on PostgreSQL: a monitor made through the API, two checks run on request,
// the second finding the change and telling the webhook; monitors, checks and notifications kept there.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { freshDatabase, postgresMissing } from "../helpers/postgres.js";
import { PostgresStore } from "../../src/store/index.js";
import { startServe, waitFor, type Serve } from "./helpers.js";

const missing = postgresMissing();
const site = new FixtureSite();
let price = "10";
let serve: Serve | undefined;
const received: string[] = [];
const hook = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    received.push(String(req.headers["x-scrapeline-event"]));
    res.writeHead(200).end();
  });
});

beforeAll(async () => {
  if (missing) return;
  site.route("/item", (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Item", `<p>price ${price}</p>`)));
  await site.start();
  await new Promise<void>((r) => hook.listen(0, "127.0.0.1", r));
  serve = await startServe({ one: {} }, { db: await freshDatabase(), env: { SCRAPELINE_SECRET_KEY: "monitor-test-key" } });
});
afterAll(async () => {
  await serve?.stop();
  if (missing) return;
  await site.stop();
  hook.closeAllConnections();
  await new Promise((r) => hook.close(r));
});

describe.skipIf(missing !== undefined)("/v2/monitor on PostgreSQL", () => {
  it("runs checks on request, finds the change, tells the webhook, and keeps it all in the database", async () => {
    const hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
    const made = await serve!.call("POST", "/v2/monitor", { body: { name: "item price", schedule: { cron: "0 * * * *" }, targets: [{ type: "scrape", urls: [`${site.url}/item`] }], webhook: { url: hookUrl, secret: "hook-secret" } } });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const id = made.body.data.id as string;
    const run = () => waitFor(() => serve!.call("POST", `/v2/monitor/${id}/run`), (r) => r.status !== 409);
    const done = (checkId: string) => waitFor(() => serve!.call("GET", `/v2/monitor/${id}/checks/${checkId}`), (r) => r.body.data.status !== "running");
    const first = await done((await run()).body.data.id);
    expect(first.body.data).toMatchObject({ status: "completed", summary: { new: 1, changed: 0 } });
    price = "8";
    const second = await done((await run()).body.data.id);
    expect(second.body.data.summary).toMatchObject({ changed: 1, new: 0 });
    expect(second.body.data.notifications).toEqual([expect.objectContaining({ event: "monitor.check.completed", sent: true }), expect.objectContaining({ event: "monitor.page", sent: true })]);
    expect(received).toContain("monitor.page");
    const store = new PostgresStore(serve!.db);
    try {
      const tables = store.monitorTables();
      const [monitor] = tables.list({ source: "api" });
      expect(monitor).toMatchObject({ name: "item price" });
      expect(tables.checks(monitor!.id).map((c) => c.status)).toEqual(["completed", "completed"]);
      // The webhook's secret is sealed, never kept in clear.
      expect(JSON.stringify(monitor!.definition)).not.toContain("hook-secret");
    } finally {
      store.close();
    }
  });
});
