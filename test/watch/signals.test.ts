import { writeFileSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { workdir } from "../run/helpers.js";
import { WatchChild } from "./watch-child.js";

/** Real `scrapeline watch` children: a slow page stopped by one or two signals, and a kill -9 while notifications are sent. */
const site = new FixtureSite();
let hold: Promise<void> | undefined;
let release: () => void = () => {};
let served = 0;
let asked = 0;
const received: Array<{ event: string; body: any }> = [];
let stall = false;
const stalled: ServerResponse[] = [];
const hook = createServer((req, res) => {
  let data = "";
  req.on("data", (c) => (data += c));
  req.on("end", () => {
    received.push({ event: String(req.headers["x-scrapeline-event"]), body: JSON.parse(data) });
    if (stall) stalled.push(res);
    else res.writeHead(204).end();
  });
});

beforeAll(async () => {
  site.route("/slow", async (_req, res) => {
    asked++;
    if (hold) await hold;
    res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Slow", "<p>slow page</p>"));
    served++;
  });
  await site.start();
  await new Promise<void>((r) => hook.listen(0, "127.0.0.1", r));
});
afterAll(async () => {
  release();
  for (const r of stalled) r.destroy();
  await site.stop();
  hook.closeAllConnections();
  await new Promise((r) => hook.close(r));
});


const rows = (db: string, sql: string) => {
  const sqlite = new Database(db, { readonly: true });
  try {
    return sqlite.prepare(sql).all() as any[];
  } finally {
    sqlite.close();
  }
};

/** Pages a run stored: on its steps' manifests once compacted, plus rows not yet folded in. */
const storedPages = (db: string, runId: number) =>
  Number(rows(db, `SELECT COALESCE(SUM(documents), 0) AS n FROM step_runs WHERE run_id = ${runId}`)[0].n) + rows(db, `SELECT url FROM documents WHERE run_id = ${runId}`).length;

describe("scrapeline watch: kill -9 while notifications are sent", () => {
  it("notifications of a check whose process is killed while sending them are sent at the next start", async () => {
    const dir = workdir();
    const db = join(dir, "w.db");
    const file = join(dir, "told.yaml");
    const hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
    writeFileSync(file, `version: 1\nname: told\nretry: { attempts: 1 }\nschedule: { every: 1s, minIntervalSeconds: 1 }\nnotify:\n  on: [new]\n  channels:\n    - webhook: { url: "${hookUrl}", events: [monitor.check.completed, monitor.page] }\nsteps:\n  - id: page\n    scrape: { url: "${site.url}/slow", formats: [markdown, { type: changeTracking }] }\n`);
    const args = [file, "--db", db, "--allow-private-network"];
    received.length = 0;
    stall = true;
    const first = new WatchChild(args);
    // The run has finished and its first notification is being sent: the process dies now.
    await first.until(() => received.length > 0, "a notification arrives");
    first.child.kill("SIGKILL");
    await first.exited;
    stall = false;
    for (const r of stalled.splice(0)) r.destroy();
    const [check] = rows(db, "SELECT id, status FROM monitor_checks ORDER BY id LIMIT 1");
    expect(check.status).toBe("running");
    expect(rows(db, `SELECT event FROM monitor_outbox WHERE check_id = ${check.id} ORDER BY id`).map((r) => r.event)).toEqual(["monitor.check.completed", "monitor.page"]);

    received.length = 0;
    const second = new WatchChild([...args, "--once"]);
    expect((await second.exited).code).toBe(0);
    expect(second.out).toMatch(new RegExp(`check\\.resumed monitor=told check=${check.id} `));
    // Both are sent (the one in flight when the process died again); each is recorded once, sent.
    const forCheck = received.filter((r) => r.body.runId === 1 || r.body.pipeline === "told");
    expect(forCheck.map((r) => r.event).slice(0, 2)).toEqual(["monitor.check.completed", "monitor.page"]);
    expect(rows(db, `SELECT event, sent FROM monitor_notifications WHERE check_id = ${check.id} ORDER BY id`)).toEqual([
      { event: "monitor.check.completed", sent: 1 },
      { event: "monitor.page", sent: 1 },
    ]);
    expect(rows(db, `SELECT id FROM monitor_outbox`)).toEqual([]);
  }, 60_000);
});

describe("scrapeline watch: stopped by signals", () => {
  it("a first SIGTERM lets the page in flight go on; a second aborts it, and the check is left interrupted for the next start", async () => {
    const dir = workdir();
    const db = join(dir, "w.db");
    const file = join(dir, "slow.yaml");
    writeFileSync(file, `version: 1\nname: slowly\nretry: { attempts: 1 }\nschedule: { every: 1s, minIntervalSeconds: 1 }\nsteps:\n  - id: page\n    scrape: { url: "${site.url}/slow", timeout: 60000 }\n`);
    hold = new Promise<void>((r) => (release = r));
    const before = { asked, served };
    const watch = new WatchChild([file, "--db", db, "--allow-private-network"]);
    await watch.until(() => asked > before.asked, "the page is asked for");
    watch.child.kill("SIGTERM");
    await watch.until(() => /watch\.stopping/.test(watch.out), "the first signal is taken");
    // The page is still in flight: the first signal waits for it.
    await new Promise((r) => setTimeout(r, 300));
    expect(watch.child.exitCode).toBeNull();
    watch.child.kill("SIGTERM");
    const exit = await watch.exited;
    release();
    hold = undefined;
    expect(exit.signal).toBeNull();
    expect(watch.out).toMatch(/check\.interrupted monitor=slowly check=1 /);
    expect(served).toBe(before.served);
    expect(rows(db, "SELECT status FROM monitor_checks")).toEqual([{ status: "interrupted" }]);
    expect(storedPages(db, 1)).toBe(0);
  }, 60_000);
});
