import { spawnSync } from "node:child_process";
import { createHmac } from "node:crypto";
import { hostname } from "node:os";
import Database from "better-sqlite3";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listMonitors, monitorChecks } from "../../src/app/monitor/monitors.js";
import { watch } from "../../src/app/monitor/watch.js";
import { HookServer } from "../helpers/hook.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { workdir } from "../run/helpers.js";

const site = new FixtureSite();
let body = "<p>price 10</p>";
const hook = new HookServer();
const received = hook.received;
let hookUrl = "";

beforeAll(async () => {
  site.route("/page", (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Page", body)));
  await site.start();
  hookUrl = `${await hook.start()}/hook`;
});
afterAll(async () => {
  await site.stop();
  await hook.stop();
});

const pipelineText = (name: string, schedule: string, notify = "") =>
  `version: 1\nname: ${name}\nallowPrivateNetwork: true\nschedule: ${schedule}\n${notify}steps:\n  - id: page\n    scrape: { url: "${site.url}/page", formats: [markdown, { type: changeTracking, modes: [git-diff] }] }\n`;

function setup(files: Record<string, string>) {
  const dir = workdir();
  mkdirSync(join(dir, "pipelines"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, "pipelines", name), text);
  return { dir: join(dir, "pipelines"), db: join(dir, "w.db") };
}

async function once(paths: string[], db: string, at: string) {
  const lines: string[] = [];
  const summary = await watch({ paths, db, once: true, now: () => new Date(at), log: (l) => lines.push(l) });
  return { summary, lines };
}

describe("watch --once", () => {
  it("registers a schedule, runs each due slot once, and a missed stretch once", async () => {
    const notify = `notify:\n  channels:\n    - webhook: { url: "${hookUrl}", secret: s3cret, events: [monitor.check.completed, monitor.page] }\n    - webhook: { url: "http://127.0.0.1:1/down" }\n`;
    const { dir, db } = setup({ "hourly.yaml": pipelineText("hourly", `{ cron: "0 * * * *" }`, notify) });
    received.length = 0;
    body = "<p>price 10</p>";

    // A pipeline never checked is due at once: its first check is the baseline.
    const first = await once([dir], db, "2026-01-01T10:15:00Z");
    expect(first.summary).toMatchObject({ checks: 1, failed: 0 });
    expect(first.lines.join("\n")).toMatch(/file\.added file=.*hourly\.yaml/);
    expect(first.lines.join("\n")).toMatch(/check\.started monitor=hourly check=1 slot=2026-01-01T10:15:00\.000Z note="first check: baseline"/);
    expect(first.lines.join("\n")).toMatch(/check\.completed monitor=hourly check=1 run=1 pages=1 changed=0 new=1/);
    // The dead channel's failure is recorded and logged, never a failure of the check.
    expect(first.lines.join("\n")).toMatch(/notify\.failed monitor=hourly .*target=http:\/\/127\.0\.0\.1:1 .*attempts=3/);
    expect(listMonitors(db)).toEqual([expect.objectContaining({ name: "hourly", schedule: "cron 0 * * * *", timezone: "UTC", nextDue: "2026-01-01T11:00:00.000Z" })]);

    const due = await once([dir], db, "2026-01-01T11:00:05Z");
    expect(due.summary).toMatchObject({ checks: 1, failed: 0 });
    expect(due.lines.join("\n")).toMatch(/check\.started monitor=hourly check=2 slot=2026-01-01T11:00:00\.000Z$/m);
    expect(due.lines.join("\n")).toMatch(/check\.completed monitor=hourly check=2 run=2 pages=1 changed=0 new=0/);

    const again = await once([dir], db, "2026-01-01T11:00:40Z");
    expect(again.summary.checks).toBe(0);

    body = "<p>price 8</p>";
    const late = await once([dir], db, "2026-01-01T14:30:00Z");
    expect(late.summary.checks).toBe(1);
    expect(late.lines.join("\n")).toMatch(/check\.late monitor=hourly slot=2026-01-01T14:00:00.000Z missed=2/);

    const { checks } = monitorChecks(db, "hourly");
    expect(checks.map((c) => [c.slot, c.status, c.summary?.new, c.summary?.changed])).toEqual([
      ["2026-01-01T14:00:00.000Z", "completed", 0, 1],
      ["2026-01-01T11:00:00.000Z", "completed", 0, 0],
      ["2026-01-01T10:15:00.000Z", "completed", 1, 0],
    ]);
    expect(checks[0]!.notifications.map((n) => [n.channel, n.event, n.sent])).toEqual([
      ["webhook", "monitor.check.completed", true],
      ["webhook", "monitor.page", true],
      ["webhook", "monitor.check.completed", false],
    ]);
    expect(listMonitors(db)[0]!.failedNotifications).toBe(1);

    // Signed bodies: X-Scrapeline-Signature is the HMAC-SHA256 of the raw body.
    expect(received).toHaveLength(4);
    for (const r of received) expect(r.headers["x-scrapeline-signature"]).toBe(`sha256=${createHmac("sha256", "s3cret").update(r.body).digest("hex")}`);
    const page = JSON.parse(received[3]!.body);
    expect(page).toMatchObject({ event: "monitor.page", pipeline: "hourly", changeStatus: "changed", diff: expect.stringContaining("+price 8") });
    expect(JSON.parse(received[2]!.body)).toMatchObject({ event: "monitor.check.completed", summary: { totalPages: 1, same: 0, changed: 1, new: 0, removed: 0, error: 0 } });
  });

  it("missed: skip lets a stretch missed while not watching go, and runs the next slot on time", async () => {
    const { dir, db } = setup({ "skip.yaml": pipelineText("skipper", `{ every: 1h, missed: skip }`) });
    await once([dir], db, "2026-01-01T10:15:00Z");
    const missed = await once([dir], db, "2026-01-01T14:30:00Z");
    expect(missed.summary.checks).toBe(0);
    expect(missed.lines.join("\n")).toMatch(/check\.skipped_missed monitor=skipper slot=2026-01-01T14:00:00.000Z missed=4/);
    const onTime = await once([dir], db, "2026-01-01T15:00:10Z");
    expect(onTime.summary.checks).toBe(1);
    expect(monitorChecks(db, "skipper").checks.map((c) => c.status)).toEqual(["completed", "skipped_missed", "completed"]);
  });

  it("a file that stops validating keeps its last good version, and says why at file:line:col", async () => {
    const { dir, db } = setup({ "p.yaml": pipelineText("keeper", `{ every: 1h }`) });
    await once([dir], db, "2026-01-01T10:15:00Z");
    writeFileSync(join(dir, "p.yaml"), pipelineText("keeper", `{ every: 1h, timezone: Mars/Olympus }`));
    const run = await once([dir], db, "2026-01-01T11:00:01Z");
    // A fresh process has no last good version of the file: it reports and runs nothing.
    expect(run.lines.join("\n")).toMatch(/file\.invalid file=\S*p\.yaml at=\S*p\.yaml:4:\d+ error="unknown-timezone: unknown time zone \\"Mars\/Olympus\\""/);
    expect(run.summary).toMatchObject({ checks: 0, invalidFiles: 1 });
  });
});

describe("check statuses", () => {
  it("partial when some pages failed, skipped_budget when the budget stopped the run before any page", async () => {
    const partial = `version: 1\nname: halfway\nallowPrivateNetwork: true\nretry: { attempts: 1 }\nschedule: { every: 1h }\nsteps:\n  - id: page\n    scrape: { url: "${site.url}/page" }\n  - id: missing\n    continueOnError: true\n    scrape: { url: "http://127.0.0.1:1/unreachable" }\n`;
    const broke = `version: 1\nname: broke\nallowPrivateNetwork: true\nbudget: { maxCredits: 0 }\nschedule: { every: 1h }\nsteps:\n  - id: page\n    scrape: { url: "${site.url}/page" }\n`;
    const { dir, db } = setup({ "partial.yaml": partial, "broke.yaml": broke });
    await once([dir], db, "2026-01-01T10:15:00Z");
    const run = await once([dir], db, "2026-01-01T11:00:01Z");
    expect(run.summary.checks).toBe(2);
    expect(monitorChecks(db, "halfway").checks[0]).toMatchObject({ status: "partial", summary: { totalPages: 2, error: 1 } });
    expect(monitorChecks(db, "broke").checks[0]).toMatchObject({ status: "skipped_budget" });
  });
});

describe("a check whose process died after its run finished", () => {
  it("is recorded from the run, without running it again", async () => {
    const { dir, db } = setup({ "done.yaml": pipelineText("finisher", `{ every: 1h }`) });
    await once([dir], db, "2026-01-01T10:15:00Z");
    const gone = spawnSync("true").pid!;
    const sqlite = new Database(db);
    sqlite.prepare("UPDATE monitor_checks SET status = 'running', finished_at = NULL, summary = NULL, owner_pid = ?, owner_host = ?").run(gone, hostname());
    sqlite.close();
    const again = await once([dir], db, "2026-01-01T10:15:30Z");
    expect(again.lines.join("\n")).toMatch(/check\.resumed monitor=finisher check=1 slot=\S+ run=1\n\S+ check\.completed monitor=finisher check=1 run=1 pages=1/);
    const check = new Database(db, { readonly: true });
    expect(check.prepare("SELECT COUNT(*) FROM runs").pluck().get()).toBe(1);
    check.close();
  });
});

describe("--once", () => {
  it("runs what was due when it started, not the slots that come due while it works", async () => {
    const { dir, db } = setup({ "chase.yaml": pipelineText("chaser", `{ every: 1h }`) });
    await once([dir], db, "2026-01-01T10:15:00Z");
    // A clock that moves an hour with every line logged: each check makes the next slot due.
    const lines: string[] = [];
    const base = Date.parse("2026-01-01T11:00:01Z");
    const summary = await watch({ paths: [dir], db, once: true, now: () => new Date(base + lines.length * 3_600_000), log: (l) => lines.push(l) });
    expect(summary.checks).toBe(1);
    // The baseline of the first call, and one slot of this one.
    expect(monitorChecks(db, "chaser").checks).toHaveLength(2);
  });
});

describe("two processes on one database", () => {
  it("a check still running in another live process makes the next slot skipped_overlap, and is left to it", async () => {
    const { dir, db } = setup({ "shared.yaml": pipelineText("shared", `{ every: 1h }`) });
    await once([dir], db, "2026-01-01T10:15:00Z");
    const sqlite = new Database(db);
    const monitorId = sqlite.prepare("SELECT id FROM monitors WHERE name = 'shared'").pluck().get();
    // The parent process (alive) holds the 11:00 check.
    sqlite.prepare("INSERT INTO monitor_checks (monitor_id, slot, trigger, status, started_at, owner_host, owner_pid) VALUES (?, '2026-01-01T11:00:00.000Z', 'schedule', 'running', '2026-01-01T11:00:00.000Z', ?, ?)").run(monitorId, hostname(), process.ppid);
    sqlite.prepare("UPDATE monitors SET last_slot = '2026-01-01T11:00:00.000Z' WHERE id = ?").run(monitorId);
    sqlite.close();
    const run = await once([dir], db, "2026-01-01T12:00:01Z");
    expect(run.summary.checks).toBe(0);
    expect(run.lines.join("\n")).toMatch(/check\.skipped_overlap monitor=shared check=\d+ slot=2026-01-01T12:00:00.000Z/);
    expect(monitorChecks(db, "shared").checks.map((c) => c.status)).toEqual(["skipped_overlap", "running", "completed"]);
  });
});
