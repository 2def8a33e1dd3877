// Three real `scrapeline watch` processes on one PostgreSQL database: each check runs once across
// them, --max-parallel holds per process, and the checks of a watcher killed (kill -9) or stalled
// (SIGSTOP: alive, but renewing nothing, as one cut off from the database) are taken over and
// finished by the others, each notification told once.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HookServer } from "../helpers/hook.js";
import { freshDatabase, postgresMissing } from "../helpers/postgres.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { workdir } from "../run/helpers.js";
import { WatchChild } from "./watch-child.js";

const missing = postgresMissing();
if (missing) console.warn(`watch on PostgreSQL skipped: ${missing}`);

const MONITORS = 6;
/** Page requests held open until the test lets each go, by the monitor that asked. */
const held: Array<{ monitor: string; go: () => void }> = [];
let holding = true;
const site = new FixtureSite();
const hook = new HookServer();
let hookUrl = "";

beforeAll(async () => {
  site.route("/page", async (req, res) => {
    const monitor = new URL(req.url ?? "/", "http://x").searchParams.get("m") ?? "";
    if (holding) await new Promise<void>((go) => held.push({ monitor, go }));
    res.writeHead(200, { "content-type": "text/html" }).end(htmlPage(monitor, `<p>price of ${monitor}: 10 EUR</p>`));
  });
  await site.start();
  hookUrl = `${await hook.start()}/hook`;
});
afterAll(async () => {
  holding = false;
  for (const h of held) h.go();
  await site.stop();
  await hook.stop();
});

const field = (line: string, name: string) => new RegExp(`\\b${name}=(\\S+)`).exec(line)?.[1];
const until = async (test: () => boolean | Promise<boolean>) => {
  while (!(await test())) await new Promise((r) => setTimeout(r, 50));
};

describe.skipIf(missing !== undefined)("watchers sharing one PostgreSQL database", () => {
  it("run each check once, at most --max-parallel each, and finish the checks of one killed and one stalled, telling each once", async () => {
    const dir = join(workdir(), "pipelines");
    mkdirSync(dir);
    for (let i = 0; i < MONITORS; i++) {
      writeFileSync(
        join(dir, `m${i}.yaml`),
        `version: 1\nname: m${i}\nretry: { attempts: 1 }\nschedule: { cron: "0 0 1 1 *" }\nnotify:\n  on: [new, changed]\n  channels:\n    - webhook: { url: "${hookUrl}", events: [monitor.check.completed, monitor.page] }\nsteps:\n  - id: page\n    scrape: { url: "${site.url}/page?m=m${i}", formats: [markdown, { type: changeTracking }] }\n`,
      );
    }
    const db = await freshDatabase();
    const args = [dir, "--db", db, "--max-parallel", "1", "--allow-private-network"];
    const env = { SCRAPELINE_CHECK_LEASE: "3s" };
    const [killed, stalled, kept] = [new WatchChild(args, env), new WatchChild(args, env), new WatchChild(args, env)] as const;
    const watchers = [killed, stalled, kept];
    const client = new pg.Client({ connectionString: db });
    try {
      // Each first check is due at once; each watcher starts one and no more (its page is held).
      await until(() => held.length === 3 && watchers.every((w) => /check\.started/.test(w.out)));
      const started = watchers.map((w) => w.out.split("\n").filter((l) => l.includes("check.started")));
      expect(started.map((s) => s.length)).toEqual([1, 1, 1]);
      const [killedCheck, stalledCheck, keptCheck] = started.map((s) => ({ id: field(s[0]!, "check")!, monitor: field(s[0]!, "monitor")! }));
      expect(new Set(held.map((h) => h.monitor))).toEqual(new Set([killedCheck!.monitor, stalledCheck!.monitor, keptCheck!.monitor]));

      killed.child.kill("SIGKILL");
      await killed.exited;
      stalled.child.kill("SIGSTOP");
      holding = false;
      held.find((h) => h.monitor === keptCheck!.monitor)!.go();
      // The one left takes over the killed watcher's check (its process is gone), and the stalled
      // one's once its lease has ended.
      await kept.lines(new RegExp(`check\\.resumed monitor=${killedCheck!.monitor} check=${killedCheck!.id} `));
      await kept.lines(new RegExp(`check\\.resumed monitor=${stalledCheck!.monitor} check=${stalledCheck!.id} `));
      // Back, the stalled watcher finds it lost the check and stops it; its page comes only then.
      stalled.child.kill("SIGCONT");
      await stalled.lines(new RegExp(`check\\.taken_over check=${stalledCheck!.id} `));
      for (const h of held) h.go();

      await client.connect();
      const checks = async () => (await client.query<{ id: number; monitor: string; status: string; owner_pid: number; n: string }>("SELECT c.id, m.name AS monitor, c.status, c.owner_pid FROM monitor_checks c JOIN monitors m ON m.id = c.monitor_id ORDER BY m.name")).rows;
      await until(async () => (await checks()).filter((c) => c.status === "completed").length === MONITORS);
      await until(() => hook.received.length >= 2 * MONITORS);
      for (const w of [stalled, kept]) w.child.kill("SIGTERM");
      expect((await stalled.exited).code).toBe(0);
      expect((await kept.exited).code).toBe(0);

      // One check per monitor, all completed; the two taken over finished by the watcher left.
      const rows = await checks();
      expect(rows.map((c) => [c.monitor, c.status])).toEqual(Array.from({ length: MONITORS }, (_, i) => [`m${i}`, "completed"]));
      expect(rows.find((c) => String(c.id) === killedCheck!.id)!.owner_pid).toBe(kept.child.pid);
      expect(rows.find((c) => String(c.id) === stalledCheck!.id)!.owner_pid).toBe(kept.child.pid);
      expect(stalled.out).not.toMatch(new RegExp(`check\\.completed monitor=\\S+ check=${stalledCheck!.id} `));
      expect((await client.query("SELECT count(*)::int AS n FROM monitor_outbox")).rows[0].n).toBe(0);
      // Each monitor told once: its check and its page, no message twice.
      const told = hook.received.map((r) => JSON.parse(r.body) as { notificationId: string; pipeline: string; event?: string });
      expect(new Set(told.map((t) => t.notificationId)).size).toBe(told.length);
      expect(told.map((t) => t.pipeline).sort()).toEqual(Array.from({ length: MONITORS }, (_, i) => [`m${i}`, `m${i}`]).flat());
    } finally {
      for (const w of watchers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill("SIGKILL");
      await client.end().catch(() => {});
    }
  }, 180_000);
});
