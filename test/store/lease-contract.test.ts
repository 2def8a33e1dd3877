// Watchers' leases on checks and queued notifications, as both stores keep them: the same assertions on SQLite and on PostgreSQL.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PostgresStore, SqliteStore } from "../../src/store/index.js";
import { freshDatabase, postgresMissing } from "../helpers/postgres.js";

const dir = mkdtempSync(join(tmpdir(), "scrapeline-leases-"));
let n = 0;
const FACTORIES = [
  { name: "SqliteStore", missing: undefined as string | undefined, fresh: async () => { const path = join(dir, `db-${n++}`, "s.db"); return () => new SqliteStore(path); } },
  { name: "PostgresStore", missing: postgresMissing(), fresh: async () => { const url = await freshDatabase(); return () => new PostgresStore(url); } },
];

const A = { host: "machine-a", pid: 11 };
const B = { host: "machine-b", pid: 22 };
const C = { host: "machine-c", pid: 33 };
const at = (minute: number) => `2026-11-22T10:${String(minute).padStart(2, "0")}:00.000Z`;
const sent = { channel: "webhook", target: "https://hook", event: "changed", sent: true, status: 200, attempts: 1 } as never;

describe.each(FACTORIES)("$name's leases", (factory) => {
  const test = it.skipIf(factory.missing !== undefined);

  test("a check is taken over once, with its outbox; its old owner can neither renew, finish nor send it", async () => {
    const open = await factory.fresh();
    const first = open();
    const second = open();
    try {
      const a = first.monitorTables();
      const b = second.monitorTables();
      const m = a.upsert({ key: "file:a", source: "file", name: "a", file: "a.yaml", schedule: { every: "1h" } as never });
      const check = a.claim(m.id, at(0), { trigger: "schedule", status: "running", owner: A, leaseMs: 60_000 })!;
      expect(check.owner).toEqual(A);
      expect(check.leaseLeftMs).toBeGreaterThan(0);
      expect(check.leaseLeftMs).toBeLessThanOrEqual(60_000);
      const [queued, other] = a.queueNotifications(check.id, [
        { channelIndex: 0, channel: { type: "webhook" }, message: { event: "changed" } as never },
        { channelIndex: 1, channel: { type: "webhook" }, message: { event: "changed" } as never },
      ], { owner: A, ms: 60_000 });
      // While A's lease runs, nobody else takes its notifications.
      expect(b.claimNotifications(check.id, { owner: B, ms: 60_000 })).toEqual([]);
      expect(a.renewLeases({ owner: A, ms: 3_600_000 })).toEqual([check.id]);
      expect(a.check(check.id)!.leaseLeftMs).toBeGreaterThan(60_000);

      // B and C both saw A as the owner: the first to take it gets it, the other nothing.
      const taken = b.adoptCheck(check.id, A, { owner: B, ms: 60_000 });
      expect(taken).toMatchObject({ id: check.id, status: "running", owner: B });
      expect(taken!.leaseLeftMs).toBeLessThanOrEqual(60_000);
      expect(a.adoptCheck(check.id, A, { owner: C, ms: 60_000 })).toBeUndefined();
      // A, back: its lease is gone, it holds no notification, and its finish changes nothing.
      expect(a.renewLeases({ owner: A, ms: 60_000 })).toEqual([]);
      expect(a.holdsNotification(queued!, { owner: A, ms: 60_000 })).toBe(false);
      a.finishCheck(check.id, "completed", {}, A);
      expect(a.check(check.id)).toMatchObject({ status: "running", owner: B });
      // B holds the outbox it took over with the check.
      expect(b.holdsNotification(queued!, { owner: B, ms: 60_000 })).toBe(true);
      expect(b.claimNotifications(check.id, { owner: B, ms: 60_000 }).map((q) => q.id)).toEqual([queued, other]);
      expect(b.settleNotification(queued!, sent)).toBe(true);
      expect(a.settleNotification(queued!, sent)).toBe(false);
      expect(b.notifications(check.id)).toHaveLength(1);
      b.finishCheck(check.id, "completed", {}, B);
      expect(b.check(check.id)).toMatchObject({ status: "completed", leaseUntil: null, leaseLeftMs: null });
      expect(b.unfinishedChecks()).toEqual([]);
    } finally {
      first.close();
      second.close();
    }
  });

  // On SQLite every watcher is on one machine: the tables' clock is that machine's.
  it.skipIf(factory.name !== "PostgresStore" || factory.missing !== undefined)("leases end by the database's clock: a watcher whose clock is an hour ahead takes no live check or notification of another", async () => {
    const open = await factory.fresh();
    const first = open();
    const second = open();
    try {
      const a = first.monitorTables();
      const ahead = second.monitorTables(() => new Date(Date.now() + 3_600_000));
      const m = a.upsert({ key: "file:d", source: "file", name: "d", file: "d.yaml", schedule: { every: "1h" } as never });
      const check = a.claim(m.id, at(0), { trigger: "schedule", status: "running", owner: A, leaseMs: 60_000 })!;
      a.queueNotifications(check.id, [{ channelIndex: 0, channel: { type: "webhook" }, message: { event: "changed" } as never }], { owner: A, ms: 60_000 });
      // The watcher an hour ahead reads the check's lease as the database counts it: live.
      const seen = ahead.unfinishedChecks().find((c) => c.id === check.id)!;
      expect(seen.leaseLeftMs).toBeGreaterThan(0);
      expect(seen.leaseLeftMs).toBeLessThanOrEqual(60_000);
      expect(ahead.claimNotifications(check.id, { owner: B, ms: 60_000 })).toEqual([]);
      // And a lease it takes ends a minute from now by the database's clock, not an hour and a minute.
      const own = ahead.claim(m.id, at(1), { trigger: "manual", status: "running", owner: B, leaseMs: 60_000, advance: false })!;
      expect(own.leaseLeftMs).toBeLessThanOrEqual(60_000);
      expect(a.check(own.id)!.leaseLeftMs).toBeLessThanOrEqual(60_000);
    } finally {
      first.close();
      second.close();
    }
  });

  test("a claim made on a stale read of the monitor's last slot is refused", async () => {
    const store = (await factory.fresh())();
    try {
      const t = store.monitorTables(() => new Date(at(0)));
      const m = t.upsert({ key: "file:c", source: "file", name: "c", file: "c.yaml", schedule: { every: "1h" } as never });
      // Two watchers read "never checked" and each decided on a baseline slot of its own time.
      expect(t.claim(m.id, at(0), { trigger: "schedule", status: "running", owner: A, lastSlot: null })).toMatchObject({ slot: at(0) });
      expect(t.claim(m.id, at(1), { trigger: "schedule", status: "running", owner: B, lastSlot: null })).toBeUndefined();
      expect(t.claim(m.id, at(2), { trigger: "schedule", status: "running", owner: B, lastSlot: at(0) })).toMatchObject({ slot: at(2) });
      expect(t.checks(m.id).map((c) => c.slot)).toEqual([at(2), at(0)]);
    } finally {
      store.close();
    }
  });

  test("a queued notification whose holder's lease ended is taken by another; an unleased one by anyone", async () => {
    const store = (await factory.fresh())();
    try {
      const t = store.monitorTables();
      const m = t.upsert({ key: "file:b", source: "file", name: "b", file: "b.yaml", schedule: { every: "1h" } as never });
      const check = t.claim(m.id, at(0), { trigger: "schedule", status: "running", owner: A, leaseMs: 60_000 })!;
      const [held] = t.queueNotifications(check.id, [{ channelIndex: 0, channel: { type: "webhook" }, message: { event: "changed" } as never }], { owner: A, ms: 60_000 });
      const [free] = t.queueNotifications(check.id, [{ channelIndex: 0, channel: { type: "webhook" }, message: { event: "changed" } as never }]);
      expect(t.claimNotifications(check.id, { owner: B, ms: 60_000 }).map((q) => q.id)).toEqual([free]);
      expect(t.claimNotifications(check.id, { owner: C, ms: 60_000 })).toEqual([]);
      // A renews for 1 ms only, then stops: its leases end (the check's and, renewed before it, the notification's).
      t.renewLeases({ owner: A, ms: 1 });
      while (t.check(check.id)!.leaseLeftMs! >= 0);
      expect(t.claimNotifications(check.id, { owner: C, ms: 60_000 }).map((q) => q.id)).toEqual([held]);
      expect(t.holdsNotification(held!, { owner: A, ms: 60_000 })).toBe(false);
      expect(t.holdsNotification(held!, { owner: C, ms: 60_000 })).toBe(true);
    } finally {
      store.close();
    }
  });
});
