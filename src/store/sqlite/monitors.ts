import type Database from "better-sqlite3";
import type { CheckStatus, CheckSummary, Delivery, OutgoingNotification, ScheduleConfig } from "../../core/index.js";
import type { CheckRecord, ClaimOptions, Lease, MonitorRecord, MonitorTables, NotificationRecord, QueuedNotification } from "../tables.js";
import { toCheck, toMonitor, toNotification, toQueued, type Row } from "../table-rows.js";
import { snapshotBranch } from "./changes.js";

/**
 * The monitoring tables (see the migration): monitors, their checks and notifications. Works on
 * the store's connection, so checks and the runs they point to share one database.
 */
export class SqliteMonitorTables implements MonitorTables {
  constructor(
    private readonly db: Database.Database,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Creates the monitor of `key`, or updates its name, file, schedule and definition; its state stays. */
  upsert(monitor: { key: string; source: MonitorRecord["source"]; teamId?: number; name: string; file?: string; schedule: ScheduleConfig; definition?: unknown }): MonitorRecord {
    this.db
      .prepare(
        `INSERT INTO monitors (key, source, team_id, name, file, schedule, definition, registered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (key) DO UPDATE SET name = excluded.name, file = excluded.file, schedule = excluded.schedule, definition = excluded.definition, deleted_at = NULL, gone_at = NULL`,
      )
      .run(monitor.key, monitor.source, monitor.teamId ?? null, monitor.name, monitor.file ?? null, JSON.stringify(monitor.schedule), monitor.definition === undefined ? null : JSON.stringify(monitor.definition), this.now().toISOString());
    return this.byKey(monitor.key)!;
  }

  byKey(key: string): MonitorRecord | undefined {
    const row = this.db.prepare("SELECT * FROM monitors WHERE key = ? AND deleted_at IS NULL").get(key) as Row | undefined;
    return row ? toMonitor(row) : undefined;
  }

  byId(id: number): MonitorRecord | undefined {
    const row = this.db.prepare("SELECT * FROM monitors WHERE id = ? AND deleted_at IS NULL").get(id) as Row | undefined;
    return row ? toMonitor(row) : undefined;
  }

  list(options: { source?: MonitorRecord["source"]; teamId?: number } = {}): MonitorRecord[] {
    const where = ["deleted_at IS NULL"];
    const args: unknown[] = [];
    if (options.source) where.push("source = ?"), args.push(options.source);
    if (options.teamId !== undefined) where.push("team_id = ?"), args.push(options.teamId);
    return (this.db.prepare(`SELECT * FROM monitors WHERE ${where.join(" AND ")} ORDER BY name, id`).all(...args) as Row[]).map(toMonitor);
  }

  /** Marks a monitor deleted; its checks stay readable by id. */
  remove(id: number): void {
    this.db.prepare("UPDATE monitors SET deleted_at = ? WHERE id = ?").run(this.now().toISOString(), id);
  }

  /** Marks a pipeline file's monitor gone: not scheduled any more, its checks kept. */
  markGone(id: number): void {
    this.db.prepare("UPDATE monitors SET gone_at = ?, next_due = NULL WHERE id = ? AND gone_at IS NULL").run(this.now().toISOString(), id);
  }

  setNextDue(id: number, nextDue: string | null): void {
    this.db.prepare("UPDATE monitors SET next_due = ? WHERE id = ?").run(nextDue, id);
  }

  /**
   * Claims a slot: records its check and moves the monitor's last slot, in one transaction. A
   * slot already claimed (by this process before a restart, or another) gives undefined.
   */
  claim(monitorId: number, slot: string, options: ClaimOptions): CheckRecord | undefined {
    const at = this.now().toISOString();
    const done = options.status !== "running";
    return this.db.transaction(() => {
      if (options.lastSlot !== undefined && this.db.prepare("SELECT last_slot FROM monitors WHERE id = ?").pluck().get(monitorId) !== options.lastSlot) return undefined;
      const info = this.db
        .prepare("INSERT INTO monitor_checks (monitor_id, slot, trigger, status, started_at, finished_at, error, owner_host, owner_pid, lease_until) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (monitor_id, slot) DO NOTHING")
        .run(monitorId, slot, options.trigger, options.status, at, done ? at : null, options.error ?? null, options.owner?.host ?? null, options.owner?.pid ?? null, done || options.leaseMs === undefined ? null : this.until(options.leaseMs));
      if (info.changes === 0) return undefined;
      if (options.advance !== false) this.db.prepare("UPDATE monitors SET last_slot = ? WHERE id = ? AND (last_slot IS NULL OR last_slot < ?)").run(slot, monitorId, slot);
      return this.check(Number(info.lastInsertRowid));
    }).immediate();
  }

  setCheckRun(checkId: number, runId: number): void {
    this.db.prepare("UPDATE monitor_checks SET run_id = ? WHERE id = ?").run(runId, checkId);
  }

  /** Takes over a check left by a process that is gone, with its queued notifications, when `previous` still owns it. */
  adoptCheck(checkId: number, previous: CheckRecord["owner"], lease: Lease): CheckRecord | undefined {
    return this.db.transaction(() => {
      const taken = this.db
        .prepare("UPDATE monitor_checks SET status = 'running', owner_host = ?, owner_pid = ?, lease_until = ? WHERE id = ? AND status IN ('running', 'interrupted') AND owner_host IS ? AND owner_pid IS ?")
        .run(lease.owner.host, lease.owner.pid, this.until(lease.ms), checkId, previous?.host ?? null, previous?.pid ?? null).changes;
      if (taken === 0) return undefined;
      this.db.prepare("UPDATE monitor_outbox SET holder_host = ?, holder_pid = ?, lease_until = ? WHERE check_id = ? AND holder_host IS ? AND holder_pid IS ?").run(lease.owner.host, lease.owner.pid, this.until(lease.ms), checkId, previous?.host ?? null, previous?.pid ?? null);
      return this.check(checkId);
    }).immediate();
  }

  /** Moves on the lease of the running checks and queued notifications its owner holds; returns the ids of the checks it still holds. */
  renewLeases(lease: Lease): number[] {
    return this.db.transaction(() => {
      this.db.prepare("UPDATE monitor_outbox SET lease_until = ? WHERE holder_host = ? AND holder_pid = ?").run(this.until(lease.ms), lease.owner.host, lease.owner.pid);
      return this.db.prepare("UPDATE monitor_checks SET lease_until = ? WHERE status = 'running' AND owner_host = ? AND owner_pid = ? RETURNING id").pluck().all(this.until(lease.ms), lease.owner.host, lease.owner.pid) as number[];
    })();
  }

  finishCheck(checkId: number, status: CheckStatus, result: { summary?: CheckSummary; error?: string }, owner?: { host: string; pid: number }): void {
    this.db
      .prepare("UPDATE monitor_checks SET status = ?, finished_at = ?, summary = ?, error = ?, lease_until = NULL WHERE id = ? AND (? IS NULL OR (owner_host = ? AND owner_pid = ?))")
      .run(status, status === "interrupted" ? null : this.now().toISOString(), result.summary ? JSON.stringify(result.summary) : null, result.error ?? null, checkId, owner ? 1 : null, owner?.host ?? null, owner?.pid ?? null);
  }

  check(id: number): CheckRecord | undefined {
    const row = this.db.prepare("SELECT * FROM monitor_checks WHERE id = ?").get(id) as Row | undefined;
    return row ? toCheck(row, this.now().getTime()) : undefined;
  }

  checks(monitorId: number, options: { limit?: number } = {}): CheckRecord[] {
    return (this.db.prepare("SELECT * FROM monitor_checks WHERE monitor_id = ? ORDER BY id DESC LIMIT ?").all(monitorId, options.limit ?? 100) as Row[]).map((r) => toCheck(r, this.now().getTime()));
  }

  latestCheck(monitorId: number): CheckRecord | undefined {
    const row = this.db.prepare("SELECT * FROM monitor_checks WHERE monitor_id = ? ORDER BY id DESC LIMIT 1").get(monitorId) as Row | undefined;
    return row ? toCheck(row, this.now().getTime()) : undefined;
  }

  /** Checks that never finished: running (maybe in a process that is gone) or interrupted. */
  unfinishedChecks(): CheckRecord[] {
    return (this.db.prepare("SELECT * FROM monitor_checks WHERE status IN ('running', 'interrupted') ORDER BY id").all() as Row[]).map((r) => toCheck(r, this.now().getTime()));
  }

  addNotifications(checkId: number, deliveries: readonly Delivery[]): void {
    const insert = this.db.prepare("INSERT INTO monitor_notifications (check_id, channel, target, event, sent, status, attempts, error, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    const at = this.now().toISOString();
    this.db.transaction(() => {
      for (const d of deliveries) insert.run(checkId, d.channel, d.target, d.event, d.sent ? 1 : 0, d.status ?? null, d.attempts, d.error ?? null, at);
    })();
  }

  /** Records notifications about to be sent (the check's outbox), before the first is sent; returns their ids. */
  queueNotifications(checkId: number, items: ReadonlyArray<{ channelIndex: number; channel: { type: string }; message: OutgoingNotification }>, lease?: Lease): number[] {
    const insert = this.db.prepare("INSERT INTO monitor_outbox (check_id, channel_index, channel, target, event, message, at, holder_host, holder_pid, lease_until) VALUES (?, ?, ?, '', ?, ?, ?, ?, ?, ?)");
    const at = this.now().toISOString();
    const holder = [lease?.owner.host ?? null, lease?.owner.pid ?? null, lease ? this.until(lease.ms) : null];
    return this.db.transaction(() => items.map((item) => Number(insert.run(checkId, item.channelIndex, item.channel.type, item.message.event, JSON.stringify(item.message), at, ...holder).lastInsertRowid)))();
  }

  /** A queued notification was delivered or failed: it leaves the outbox and is recorded, at once. False when it had already been settled. */
  settleNotification(outboxId: number, delivery: Delivery): boolean {
    return this.db.transaction(() => {
      const checkId = this.db.prepare("DELETE FROM monitor_outbox WHERE id = ? RETURNING check_id").pluck().get(outboxId) as number | undefined;
      if (checkId !== undefined) this.addNotifications(checkId, [delivery]);
      return checkId !== undefined;
    })();
  }

  /** Takes a check's queued notifications that nobody holds, whose holder's lease ended, or that `lease`'s owner holds, for `lease`. */
  claimNotifications(checkId: number, lease: Lease): QueuedNotification[] {
    const taken = this.db
      .prepare(
        `UPDATE monitor_outbox SET holder_host = ?, holder_pid = ?, lease_until = ?
         WHERE check_id = ? AND (lease_until IS NULL OR lease_until < ? OR (holder_host = ? AND holder_pid = ?)) RETURNING id, channel_index, message`,
      )
      .all(lease.owner.host, lease.owner.pid, this.until(lease.ms), checkId, this.now().toISOString(), lease.owner.host, lease.owner.pid) as Row[];
    return taken.map(toQueued).sort((a, b) => a.id - b.id);
  }

  /** Whether `lease`'s owner still holds a queued notification (moving its lease on). */
  holdsNotification(outboxId: number, lease: Lease): boolean {
    return this.db.prepare("UPDATE monitor_outbox SET lease_until = ? WHERE id = ? AND holder_host IS ? AND holder_pid IS ?").run(this.until(lease.ms), outboxId, lease.owner.host, lease.owner.pid).changes > 0;
  }

  /** Notifications of a check queued and not yet settled (their process died while sending them). */
  pendingNotifications(checkId: number): QueuedNotification[] {
    return (this.db.prepare("SELECT id, channel_index, message FROM monitor_outbox WHERE check_id = ? ORDER BY id").all(checkId) as Row[]).map(toQueued);
  }

  /** Whether any notification of a check was ever queued or recorded. */
  hasNotifications(checkId: number): boolean {
    return this.db.prepare("SELECT 1 FROM monitor_outbox WHERE check_id = ? UNION ALL SELECT 1 FROM monitor_notifications WHERE check_id = ? LIMIT 1").get(checkId, checkId) !== undefined;
  }

  notifications(checkId: number): NotificationRecord[] {
    return (this.db.prepare("SELECT * FROM monitor_notifications WHERE check_id = ? ORDER BY id").all(checkId) as Row[]).map(toNotification);
  }

  /** Notifications that failed, newest first, across monitors. */
  failedNotifications(limit = 50): NotificationRecord[] {
    const ids = this.db.prepare("SELECT DISTINCT check_id FROM monitor_notifications WHERE sent = 0 ORDER BY id DESC LIMIT ?").pluck().all(limit) as number[];
    return ids.flatMap((id) => this.notifications(id).filter((n) => !n.sent));
  }

  /**
   * Removes the versions of a tag's pages last seen before `before`, except each page's latest
   * version (its comparison base). Returns how many were removed.
   */
  pruneSnapshots(tag: string, before: string): number {
    return this.db
      .prepare(
        `DELETE FROM snapshots WHERE branch = ? AND last_seen_at < ?
           AND version < (SELECT MAX(s2.version) FROM snapshots s2 WHERE s2.url = snapshots.url AND s2.branch = snapshots.branch)`,
      )
      .run(snapshotBranch(tag), before).changes;
  }

  /** When a lease of `ms` taken now ends, by the tables' clock: on SQLite every watcher is on one machine. */
  private until(ms: number): string {
    return new Date(this.now().getTime() + ms).toISOString();
  }
}
