import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { updateTeam } from "../../src/app/index.js";
import { SqliteStore } from "../../src/store/index.js";
import { startServe, waitFor, type Serve } from "./helpers.js";

const site = new FixtureSite();
let price = "10";
let serve: Serve;
let clock = Date.parse("2026-06-01T10:00:30Z");
const received: Array<{ event: string; body: any; signed: boolean }> = [];
const hook = createServer((req, res) => {
  let data = "";
  req.on("data", (c) => (data += c));
  req.on("end", () => {
    const expected = `sha256=${createHmac("sha256", "hook-secret").update(data).digest("hex")}`;
    const signed = req.headers["x-scrapeline-signature"] === expected && req.headers["x-firecrawl-signature"] === expected;
    received.push({ event: String(req.headers["x-scrapeline-event"]), body: JSON.parse(data), signed });
    res.writeHead(200).end();
  });
});
let hookUrl = "";

beforeAll(async () => {
  site.route("/item", (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Item", `<p>price ${price}</p>`)));
  await site.start();
  await new Promise<void>((r) => hook.listen(0, "127.0.0.1", r));
  hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/monitor-hook`;
  serve = await startServe({ one: {}, two: {} }, { clock: () => clock, env: { SCRAPELINE_SECRET_KEY: "monitor-test-key" } });
});
afterAll(async () => {
  await serve.stop();
  await site.stop();
  hook.closeAllConnections();
  await new Promise((r) => hook.close(r));
});

const body = (extra: Record<string, unknown> = {}) => ({ name: "item price", schedule: { cron: "0 * * * *", timezone: "Europe/Berlin" }, targets: [{ type: "scrape", urls: [`${site.url}/item`], scrapeOptions: { onlyMainContent: true } }], webhook: { url: hookUrl, secret: "hook-secret" }, ...extra });
/** POST /run, again while the previous check is still finishing (409). */
const runNow = (id: string) => waitFor(() => serve.call("POST", `/v2/monitor/${id}/run`), (r) => r.status !== 409);
const checkDone = (id: string, checkId: string) => waitFor(() => serve.call("GET", `/v2/monitor/${id}/checks/${checkId}`), (r) => r.body.data.status !== "running");

describe("/v2/monitor", () => {
  it("makes, lists, reads, changes and deletes a team's monitors; another team's is a 404", async () => {
    const made = await serve.call("POST", "/v2/monitor", { body: body() });
    expect(made.status).toBe(200);
    const id = made.body.data.id as string;
    expect(made.body.data).toMatchObject({ name: "item price", schedule: { cron: "0 * * * *", timezone: "Europe/Berlin" }, retentionDays: 30, webhook: { url: hookUrl, signed: true }, status: "active" });
    expect(JSON.stringify(made.body)).not.toContain("hook-secret");
    expect((await serve.call("GET", "/v2/monitor")).body.data.map((m: { id: string }) => m.id)).toContain(id);
    const other = serve.keys.two!;
    expect((await serve.call("GET", `/v2/monitor/${id}`, { key: other })).status).toBe(404);
    expect((await serve.call("GET", "/v2/monitor", { key: other })).body.data).toEqual([]);
    expect((await serve.call("DELETE", `/v2/monitor/${id}`, { key: other })).status).toBe(404);

    const badPatch = await serve.call("PATCH", `/v2/monitor/${id}`, { body: { targets: [{ type: "scrape", urls: ["notaurl"] }] } });
    expect(badPatch.status).toBe(400);
    expect(badPatch.body.error).toMatch(/targets\[0\]\.urls/);
    const patched = await serve.call("PATCH", `/v2/monitor/${id}`, { body: { name: "renamed", retentionDays: 7 } });
    expect(patched.body.data).toMatchObject({ name: "renamed", retentionDays: 7, schedule: { cron: "0 * * * *" } });
    expect((await serve.call("DELETE", `/v2/monitor/${id}`)).status).toBe(200);
    expect((await serve.call("GET", `/v2/monitor/${id}`)).status).toBe(404);
  });

  it("answers bad bodies with 400 naming the field", async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ name: "" }, /name/],
      [{ schedule: { cron: "61 * * * *" } }, /schedule\.cron/],
      [{ schedule: { cron: "* * * * * *" } }, /schedule\.cron: .*under the minimum/],
      [{ schedule: { cron: "0 * * * *", timezone: "Nowhere/City" } }, /schedule\.timezone/],
      [{ targets: [] }, /targets/],
      [{ targets: Array.from({ length: 51 }, () => ({ type: "scrape", urls: [`${site.url}/item`] })) }, /targets: at most 50/],
      [{ targets: [{ type: "scrape", urls: [`${site.url}/item`] }, { type: "scrape", urls: [`${site.url}/item`], scrapeOptions: { formats: ["nope"] } }] }, /targets\[1\]/],
      [{ targets: [{ type: "crawl", url: "ftp://x" }] }, /targets\[0\]\.url/],
      [{ webhook: { url: hookUrl, headerz: {} } }, /webhook\.headerz: unknown field/],
      [{ color: "red" }, /color: unknown field/],
    ];
    for (const [extra, pattern] of cases) {
      const r = await serve.call("POST", "/v2/monitor", { body: body(extra) });
      expect(r.status, JSON.stringify(extra).slice(0, 80)).toBe(400);
      expect(r.body.error).toMatch(pattern);
    }
  });

  it("runs a check on request: summary, pages with diffs, signed notifications; retention keeps each page's latest snapshot", async () => {
    received.length = 0;
    price = "10";
    const id = (await serve.call("POST", "/v2/monitor", { body: body({ retentionDays: 1 }) })).body.data.id as string;
    const first = await serve.call("POST", `/v2/monitor/${id}/run`);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const done1 = await checkDone(id, first.body.data.id);
    expect(done1.body.data).toMatchObject({ status: "completed", trigger: "manual", summary: { totalPages: 1, same: 0, changed: 0, new: 1, removed: 0, error: 0 } });

    price = "8";
    const second = await runNow(id);
    const done2 = await checkDone(id, second.body.data.id);
    expect(done2.body.data.summary).toMatchObject({ changed: 1, new: 0 });
    expect(done2.body.data.pages).toEqual([expect.objectContaining({ url: `${site.url}/item`, status: "changed", diff: expect.stringContaining("+price 8") })]);
    expect(done2.body.data.notifications).toEqual([expect.objectContaining({ event: "monitor.check.completed", sent: true }), expect.objectContaining({ event: "monitor.page", sent: true })]);
    expect(received.every((r) => r.signed)).toBe(true);
    // The hosted service's envelope: {success, type, id, webhookId, data}.
    const pages = received.filter((r) => r.event === "monitor.page").map((r) => r.body);
    expect(pages.map((b) => b.data[0].status)).toEqual(["new", "changed"]);
    expect(pages[1]).toEqual({ success: true, type: "monitor.page", id, webhookId: expect.stringMatching(/^[0-9a-f-]{36}$/), data: [{ url: `${site.url}/item`, status: "changed", visibility: "visible", previousScrapeAt: expect.any(String), diff: expect.stringContaining("+price 8") }] });
    const completed = received.filter((r) => r.event === "monitor.check.completed").map((r) => r.body);
    expect(completed[1]).toEqual({ success: true, type: "monitor.check.completed", id, webhookId: expect.stringMatching(/^[0-9a-f-]{36}$/), data: expect.objectContaining({ status: "completed", summary: { totalPages: 1, same: 0, changed: 1, new: 0, removed: 0, error: 0 }, creditsUsed: expect.any(Number) }) });
    expect(new Set(received.map((r) => r.body.webhookId)).size).toBe(received.length);

    const checks = await serve.call("GET", `/v2/monitor/${id}/checks`);
    expect(checks.body.data.map((c: { id: string }) => c.id)).toEqual([second.body.data.id, first.body.data.id]);
    expect((await serve.call("GET", `/v2/monitor/${id}/checks/99999`)).status).toBe(404);
    expect((await serve.call("GET", `/v2/monitor/${id}/checks`, { key: serve.keys.two! })).status).toBe(404);

    // Two days on, with one day's retention: the older version goes, the latest stays.
    const countVersions = () => {
      const db = new Database(serve.db, { readonly: true });
      try {
        return db.prepare("SELECT version FROM snapshots WHERE branch = ? ORDER BY version").pluck().all(`=monitor-${id}`);
      } finally {
        db.close();
      }
    };
    expect(countVersions()).toEqual([1, 2]);
    // The webhook's secret is not in the plans stored with the runs.
    const plans = new SqliteStore(serve.db);
    const planText = plans.listRuns().map((r) => plans.runPlan(r.id) ?? "").join("\n");
    plans.close();
    expect(planText).toContain("SCRAPELINE_MONITOR_WEBHOOK_SECRET");
    expect(planText).not.toContain("hook-secret");
    // Snapshots are stamped with the real time; the server's clock moves two days past it.
    const saved = clock;
    clock = Date.now() + 2 * 86_400_000;
    const third = await runNow(id);
    await checkDone(id, third.body.data.id);
    await waitFor(async () => countVersions(), (v) => v.length === 1);
    expect(countVersions()).toEqual([2]);
    clock = saved;
  });

  it("runs due monitors itself, on their schedule", async () => {
    clock = Date.parse("2026-06-01T10:00:30Z");
    const id = (await serve.call("POST", "/v2/monitor", { body: body({ schedule: { cron: "0 * * * *", timezone: "UTC" }, webhook: null }) })).body.data.id as string;
    const before = await waitFor(() => serve.call("GET", `/v2/monitor/${id}`), (r) => r.body.data.nextRunAt !== null);
    expect(before.body.data.nextRunAt).toBe("2026-06-01T11:00:00.000Z");
    clock = Date.parse("2026-06-01T11:00:02Z");
    // A change to any monitor makes the loop look again (it would on its own within a minute).
    await serve.call("PATCH", `/v2/monitor/${id}`, { body: { retentionDays: 30 } });
    const checks = await waitFor(() => serve.call("GET", `/v2/monitor/${id}/checks`), (r) => r.body.data.length === 1 && r.body.data[0].status !== "running");
    expect(checks.body.data[0]).toMatchObject({ trigger: "schedule", scheduledFor: "2026-06-01T11:00:00.000Z", status: "completed" });

    // A team whose plan is spent: the next due check is skipped_budget, nothing fetched.
    updateTeam(serve.db, "one", { planTokens: 0 });
    const hits = site.hits.get("/item") ?? 0;
    clock = Date.parse("2026-06-01T12:00:02Z");
    await serve.call("PATCH", `/v2/monitor/${id}`, { key: serve.keys.one!, body: { retentionDays: 31 } });
    const skipped = await waitFor(() => serve.call("GET", `/v2/monitor/${id}/checks`), (r) => r.status === 200 && r.body.data.length === 2);
    expect(skipped.body.data[0]).toMatchObject({ scheduledFor: "2026-06-01T12:00:00.000Z", status: "skipped_budget", error: expect.stringMatching(/plan's tokens/) });
    expect(site.hits.get("/item") ?? 0).toBe(hits);
    expect((await serve.call("POST", `/v2/monitor/${id}/run`)).status).toBe(402);
  });
});
