// serve's, monitors' and job webhooks' tables as both stores keep them: the same assertions on SQLite and on PostgreSQL.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PostgresStore, SqliteStore } from "../../src/store/index.js";
import { freshDatabase, postgresMissing } from "../helpers/postgres.js";

type AnyStore = SqliteStore | PostgresStore;
const dir = mkdtempSync(join(tmpdir(), "scrapeline-tables-"));
let n = 0;
const FACTORIES = [
  { name: "SqliteStore", missing: undefined as string | undefined, fresh: async () => { const path = join(dir, `db-${n++}`, "s.db"); return () => new SqliteStore(path); } },
  { name: "PostgresStore", missing: postgresMissing(), fresh: async () => { const url = await freshDatabase(); return () => new PostgresStore(url); } },
];

const team = { name: "acme", planTokens: 1000, periodDays: 30, rateLimit: 60, maxConcurrentJobs: 2 };
const schedule = { every: "1h" } as never;

describe.each(FACTORIES)("$name keeps serve's, monitors' and webhooks' tables", (factory) => {
  const test = it.skipIf(factory.missing !== undefined);

  test("teams, keys (revoked ones stop opening), jobs in order and their pages", async () => {
    const store: AnyStore = (await factory.fresh())();
    try {
      const tables = store.serveTables();
      const made = tables.createTeam(team);
      expect(made).toMatchObject({ name: "acme", planTokens: 1000, threatPolicy: { enabled: false } });
      tables.updateTeam(made.id, { planTokens: 5, threatPolicy: { enabled: true, enforced: false, overridesAllowed: true } });
      expect(tables.teamByName("acme")).toMatchObject({ planTokens: 5, rateLimit: 60, threatPolicy: { enabled: true } });
      expect(tables.teams().map((t) => t.name)).toEqual(["acme"]);
      const keyId = tables.addKey(made.id, "sk-ab", "hash-1");
      tables.addKey(made.id, "sk-cd", "hash-2");
      expect(tables.teamByKeyHash("hash-1")?.id).toBe(made.id);
      expect(tables.revokeKeys([keyId, keyId])).toBe(1);
      expect(tables.revokeKeys([keyId])).toBe(0);
      expect(tables.teamByKeyHash("hash-1")).toBeUndefined();
      expect(tables.keys().map((k) => [k.prefix, k.revokedAt !== null])).toEqual([["sk-ab", true], ["sk-cd", false]]);

      tables.createJob({ id: "j1", teamId: made.id, kind: "crawl", url: "https://e.com", total: null });
      tables.createJob({ id: "j2", teamId: made.id, kind: "crawl", url: "https://e.com/2", total: null });
      tables.createJob({ id: "j3", teamId: made.id, kind: "scrape", url: "https://e.com/3", total: 1 });
      expect(tables.jobsOf(made.id, "crawl", 10).map((j) => j.id)).toEqual(["j2", "j1"]);
      tables.setJobPages("j1", ["https://e.com/b", "https://e.com/a"]);
      expect(tables.jobPages("j1")).toEqual(["https://e.com/b", "https://e.com/a"]);
      expect(tables.jobPages("j2")).toBeUndefined();
      tables.finishJob("j1", "completed", { total: 2 });
      tables.finishJob("j1", "failed", { error: "late" });
      expect(tables.job("j1")).toMatchObject({ status: "failed", total: 2, error: "late", url: "https://e.com" });
      expect(tables.job("nope")).toBeUndefined();
      tables.finishJob("j2", "completed");
      expect(tables.lastSuccess(made.id, "2000-01-01T00:00:00.000Z")).toBe(tables.job("j2")!.finishedAt);
    } finally {
      store.close();
    }
  });

  test("credits of a team's jobs and monitor checks, by kind and period", async () => {
    const store: AnyStore = (await factory.fresh())();
    try {
      const tables = store.serveTables();
      const t = tables.createTeam(team);
      const crawl = store.createRun({ pipelineName: "c", pipelineFile: "c", pipelineHash: "h", planJson: "{}", engine: "local" });
      store.startStep(crawl.id, "s", "crawl");
      await store.saveDocument({ runId: crawl.id, stepId: "s", url: "https://e.com/a", fetchedAt: "2026-11-22T00:00:00.000Z", creditsUsed: 3, document: { markdown: "a", metadata: { sourceURL: "https://e.com/a", url: "https://e.com/a", statusCode: 200 } } });
      tables.createJob({ id: "c1", teamId: t.id, kind: "crawl", url: null, total: null });
      tables.setJobRun("c1", crawl.id);
      const checkRun = store.createRun({ pipelineName: "m", pipelineFile: "m", pipelineHash: "h", planJson: "{}", engine: "local" });
      store.startStep(checkRun.id, "s", "scrape");
      await store.saveDocument({ runId: checkRun.id, stepId: "s", url: "https://e.com/m", fetchedAt: "2026-11-22T00:00:00.000Z", creditsUsed: 4, document: { markdown: "m", metadata: { sourceURL: "https://e.com/m", url: "https://e.com/m", statusCode: 200 } } });
      const monitors = store.monitorTables();
      const monitor = monitors.upsert({ key: "api:1", source: "api", teamId: t.id, name: "m", schedule });
      const check = monitors.claim(monitor.id, "2026-11-22T00:00:00.000Z", { trigger: "manual", status: "running" })!;
      monitors.setCheckRun(check.id, checkRun.id);
      const since = "2000-01-01T00:00:00.000Z";
      expect(tables.creditsUsedSince(t.id, since, ["crawl"])).toBe(3);
      expect(tables.creditsUsedSince(t.id, since, ["scrape"])).toBe(0);
      expect(tables.monitorCreditsSince(t.id, since)).toBe(4);
      expect(tables.creditsUsedSince(t.id, since)).toBe(7);
      expect(tables.creditsUsedSince(t.id, since, undefined, since)).toBe(0);
    } finally {
      store.close();
    }
  });

  test("monitors: upsert keeps state, a slot is claimed once, the outbox settles into notifications", async () => {
    const store: AnyStore = (await factory.fresh())();
    try {
      const tables = store.monitorTables(() => new Date("2026-11-22T10:00:00.000Z"));
      const m = tables.upsert({ key: "file:a", source: "file", name: "a", file: "a.yaml", schedule });
      tables.setNextDue(m.id, "2026-11-22T11:00:00.000Z");
      const again = tables.upsert({ key: "file:a", source: "file", name: "a2", file: "a.yaml", schedule });
      expect(again).toMatchObject({ id: m.id, name: "a2", nextDue: "2026-11-22T11:00:00.000Z", registeredAt: "2026-11-22T10:00:00.000Z", teamId: null, definition: null });
      const first = tables.claim(m.id, "2026-11-22T10:00:00.000Z", { trigger: "schedule", status: "running", owner: { host: "h", pid: 7 } });
      expect(first).toMatchObject({ slot: "2026-11-22T10:00:00.000Z", status: "running", owner: { host: "h", pid: 7 }, finishedAt: null });
      expect(tables.claim(m.id, "2026-11-22T10:00:00.000Z", { trigger: "schedule", status: "running" })).toBeUndefined();
      expect(tables.byId(m.id)!.lastSlot).toBe("2026-11-22T10:00:00.000Z");
      expect(tables.unfinishedChecks().map((c) => c.id)).toEqual([first!.id]);
      const ids = tables.queueNotifications(first!.id, [
        { channelIndex: 0, channel: { type: "webhook" }, message: { event: "changed" } as never },
        { channelIndex: 1, channel: { type: "slack" }, message: { event: "changed" } as never },
      ]);
      expect(tables.hasNotifications(first!.id)).toBe(true);
      tables.settleNotification(ids[0]!, { channel: "webhook", target: "https://hook", event: "changed", sent: true, status: 200, attempts: 1 } as never);
      tables.settleNotification(ids[0]!, { channel: "webhook", target: "https://hook", event: "changed", sent: true, status: 200, attempts: 1 } as never);
      expect(tables.pendingNotifications(first!.id)).toEqual([{ id: ids[1], channelIndex: 1, message: { event: "changed" } }]);
      tables.settleNotification(ids[1]!, { channel: "slack", target: "slack", event: "changed", sent: false, attempts: 3, error: "down" } as never);
      expect(tables.notifications(first!.id).map((x) => [x.channel, x.sent, x.status ?? null, x.error ?? null])).toEqual([["webhook", true, 200, null], ["slack", false, null, "down"]]);
      expect(tables.failedNotifications().map((x) => x.channel)).toEqual(["slack"]);
      tables.finishCheck(first!.id, "completed", { summary: { changed: 1 } as never });
      expect(tables.latestCheck(m.id)).toMatchObject({ status: "completed", summary: { changed: 1 }, finishedAt: "2026-11-22T10:00:00.000Z" });
      expect(tables.unfinishedChecks()).toEqual([]);
      tables.markGone(m.id);
      expect(tables.byKey("file:a")).toMatchObject({ goneAt: "2026-11-22T10:00:00.000Z", nextDue: null });
      tables.remove(m.id);
      expect(tables.byKey("file:a")).toBeUndefined();
      expect(tables.list()).toEqual([]);
      expect(tables.check(first!.id)?.monitorId).toBe(m.id);
    } finally {
      store.close();
    }
  });

  test("job webhooks: queued without the secret, settled, and the unsettled ones listed", async () => {
    const store: AnyStore = (await factory.fresh())();
    try {
      const hooks = store.jobWebhookTables();
      const channel = { type: "webhook", url: "https://hook", secret: "s3cret" } as never;
      const a = hooks.queue("j1", channel, { event: "crawl.started" } as never);
      const b = hooks.queue("j1", channel, { event: "crawl.page" } as never);
      expect(hooks.pending().map((p) => [p.id, p.jobId, JSON.stringify(p.channel).includes("s3cret")])).toEqual([[a, "j1", false], [b, "j1", false]]);
      hooks.settle(a, { sent: true, status: 200, attempts: 1 } as never);
      expect(hooks.pending().map((p) => p.id)).toEqual([b]);
      expect(hooks.deliveries("j1")).toEqual([{ event: "crawl.started", sent: true, status: 200, attempts: 1 }]);
      expect(hooks.channel("j1")).toEqual({ type: "webhook", url: "https://hook" });
      expect(hooks.channel("j2")).toBeUndefined();
    } finally {
      store.close();
    }
  });
});

describe.each(FACTORIES)("$name's request windows", (factory) => {
  const test = it.skipIf(factory.missing !== undefined);

  test("a team's requests are counted per minute up to its limit; on PostgreSQL every replica counts in one window", async () => {
    const open = await factory.fresh();
    const one = open();
    const two = open();
    try {
      const first = one.serveTables();
      const t = first.createTeam(team);
      const t0 = Date.parse("2026-11-22T00:00:00.000Z");
      expect(first.takeRequest(t.id, 2, t0)).toEqual({ start: t0, count: 0, taken: true });
      expect(first.takeRequest(t.id, 2, t0 + 10)).toEqual({ start: t0, count: 1, taken: true });
      expect(first.takeRequest(t.id, 2, t0 + 20)).toEqual({ start: t0, count: 2, taken: false });
      // Another server on the database: a replica on PostgreSQL finds the window full; SQLite has one server only.
      expect(two.serveTables().takeRequest(t.id, 2, t0 + 30).taken).toBe(one instanceof SqliteStore);
      expect(first.takeRequest(t.id, 2, t0 + 60_000)).toEqual({ start: t0 + 60_000, count: 0, taken: true });
    } finally {
      one.close();
      two.close();
    }
  });
});

describe.each(FACTORIES)("$name's serve claim", (factory) => {
  const test = it.skipIf(factory.missing !== undefined);

  test("a live server's claim: SQLite refuses a second server, PostgreSQL lets replicas share and keeps their jobs", async () => {
    const open = await factory.fresh();
    const one = open();
    const two = open();
    try {
      const first = one.serveTables();
      expect(first.claimServer("server-1")).toBeUndefined();
      const t = first.createTeam(team);
      first.createJob({ id: "running", teamId: t.id, kind: "crawl", url: null, total: null });
      const second = two.serveTables();
      const answer = second.claimServer("server-2");
      if (one instanceof SqliteStore) {
        expect(answer).toMatchObject({ pid: process.pid });
      } else {
        expect(answer).toBeUndefined();
      }
      // Either way the live server's job keeps running.
      expect(second.job("running")!.status).toBe("scraping");
      expect(first.cancelledElsewhere("running")).toBe(false);
      second.finishJob("running", "cancelled");
      // Only replicas sharing a PostgreSQL database cancel each other's jobs; the runner's finish keeps the cancel there.
      expect(first.cancelledElsewhere("running")).toBe(!(one instanceof SqliteStore));
      first.finishJob("running", "completed");
      expect(second.job("running")!.status).toBe(one instanceof SqliteStore ? "completed" : "cancelled");
      first.createJob({ id: "left", teamId: t.id, kind: "crawl", url: null, total: null });
      first.releaseServer("server-1");
      second.releaseServer("server-2");
      // With every server gone, the next one to start cancels what they left (on PostgreSQL, through its takeover).
      const third = open().serveTables();
      expect(third.claimServer("server-3")).toBeUndefined();
      if (one instanceof SqliteStore) {
        expect(second.job("left")).toMatchObject({ status: "cancelled", error: "the server stopped before the job finished" });
      } else {
        expect(second.job("left")!.status).toBe("scraping");
        expect(third.takeOverDead("server-3", 60_000).map((t) => [t.job.id, t.from])).toEqual([["left", undefined]]);
        expect(third.takeOverDead("server-3", 60_000)).toEqual([]);
      }
    } finally {
      one.close();
      two.close();
    }
  });
});

describe.each(FACTORIES)("$name's replicas", (factory) => {
  const test = it.skipIf(factory.missing !== undefined);

  test("a team's running jobs are counted on every replica, and a job over the limit is not recorded", async () => {
    const open = await factory.fresh();
    const one = open();
    const two = open();
    try {
      const [a, b] = [one.serveTables(), two.serveTables()];
      a.claimServer("a");
      b.claimServer("b");
      const t = a.createTeam(team);
      const within = { kinds: ["crawl", "batch"] as const, max: 1 };
      expect(a.createJob({ id: "first", teamId: t.id, kind: "crawl", url: null, total: null }, within)).toBe(true);
      // A job without a limit (a scrape) is recorded whatever runs.
      expect(a.createJob({ id: "scrape", teamId: t.id, kind: "scrape", url: null, total: 1 })).toBe(true);
      expect(b.runningJobs(t.id, ["crawl", "batch"]).map((j) => j.id)).toEqual(["first"]);
      expect(b.createJob({ id: "second", teamId: t.id, kind: "batch", url: null, total: 2 }, within)).toBe(false);
      expect(b.job("second")).toBeUndefined();
      a.finishJob("first", "completed");
      expect(b.createJob({ id: "second", teamId: t.id, kind: "batch", url: null, total: 2 }, within)).toBe(true);
      expect(a.runningJobs(t.id, ["crawl", "batch"]).map((j) => j.id)).toEqual(["second"]);
    } finally {
      one.close();
      two.close();
    }
  });

  test("a replica whose heartbeat is older than the lease is dead, and its jobs are taken over once", async () => {
    const open = await factory.fresh();
    const [one, two, three] = [open(), open(), open()];
    try {
      const [a, b, c] = [one.serveTables(), two.serveTables(), three.serveTables()];
      for (const [tables, token] of [[a, "a"], [b, "b"], [c, "c"]] as const) tables.claimServer(token);
      const t = a.createTeam(team);
      a.createJob({ id: "of-a", teamId: t.id, kind: "crawl", url: null, total: null });
      b.createJob({ id: "of-b", teamId: t.id, kind: "crawl", url: null, total: null });
      expect(b.deadServers("b", 60_000)).toEqual([]);
      expect(b.takeOverDead("b", 60_000)).toEqual([]);
      if (one instanceof SqliteStore) {
        // One server holds a SQLite database: nothing is shared, nothing taken over.
        expect(a.sharedByReplicas()).toBe(false);
        expect(b.takeOverDead("b", 1)).toEqual([]);
        return;
      }
      expect(a.sharedByReplicas()).toBe(true);
      // b and c beat; a has not since it started: with a lease shorter than that, a is dead.
      const LEASE = 300;
      await until(() => (b.heartbeat("b"), c.heartbeat("c"), b.deadServers("b", LEASE).some((r) => r.token === "a")));
      // b takes a's job over (its own stays its own) ...
      const taken = b.takeOverDead("b", LEASE);
      expect(taken.map((x) => [x.job.id, x.from?.token])).toContainEqual(["of-a", "a"]);
      expect(taken.map((x) => x.job.id)).not.toContain("of-b");
      // ... once: c, taking over after it, finds nothing left (b is alive, a's row is gone).
      expect(c.takeOverDead("c", 60_000)).toEqual([]);
      expect(c.deadServers("c", 60_000)).toEqual([]);
      // a was alive after all: its heartbeat gives its row back, and says it had lost it.
      expect(a.heartbeat("a")).toBe(false);
      expect(a.heartbeat("a")).toBe(true);
    } finally {
      for (const store of [one, two, three]) store.close();
    }
  });

  test("job webhooks' messages left unsent are claimed by one replica; a live sender keeps its own", async () => {
    const open = await factory.fresh();
    const [one, two] = [open(), open()];
    try {
      one.serveTables().claimServer("a");
      two.serveTables().claimServer("b");
      const channel = { type: "webhook", url: "https://hook" } as never;
      const [ha, hb] = [one.jobWebhookTables(), two.jobWebhookTables()];
      const held = ha.queue("j1", channel, { event: "crawl.started" } as never, "a");
      const orphan = ha.queue("j2", channel, { event: "crawl.page" } as never, "gone");
      if (one instanceof SqliteStore) {
        expect(hb.claimPending("b").map((p) => p.id)).toEqual([held, orphan]);
        return;
      }
      expect(hb.claimPending("b").map((p) => p.id)).toEqual([orphan]);
      expect(ha.claimPending("a")).toEqual([]);
      one.serveTables().releaseServer("a");
      expect(hb.claimPending("b").map((p) => p.id)).toEqual([held]);
      expect(hb.claimPending("b")).toEqual([]);
    } finally {
      one.close();
      two.close();
    }
  });
});

/** Waits until `done` holds (the test's own timeout bounds it). */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 20));
}

