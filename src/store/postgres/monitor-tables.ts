// Monitors, their checks, notifications and outbox on PostgreSQL (the thread's side; ../tables.ts says what each does).
import type { OutgoingNotification } from "../../core/index.js";
import { snapshotBranch } from "../change-codec.js";
import type { MonitorTables } from "../tables.js";
import { toCheck, toMonitor, toNotification } from "../table-rows.js";
import type { OnThread } from "./on-thread.js";
import { changes, column, row, rows, run, value, type Tx } from "./sql.js";

async function check(tx: Tx, id: number) {
  const found = await row(tx, "SELECT * FROM monitor_checks WHERE id = $1", [id]);
  return found ? toCheck(found) : undefined;
}

export const MONITOR_TABLES: OnThread<MonitorTables> = {
  async upsert(tx, monitor) {
    const found = await row(
      tx,
      `INSERT INTO monitors (key, source, team_id, name, file, schedule, definition, registered_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (key) DO UPDATE SET name = excluded.name, file = excluded.file, schedule = excluded.schedule, definition = excluded.definition, deleted_at = NULL, gone_at = NULL
       RETURNING *`,
      [monitor.key, monitor.source, monitor.teamId ?? null, monitor.name, monitor.file ?? null, JSON.stringify(monitor.schedule), monitor.definition === undefined ? null : JSON.stringify(monitor.definition), tx.now],
    );
    return toMonitor(found!);
  },
  async byKey(tx, key) {
    const found = await row(tx, "SELECT * FROM monitors WHERE key = $1 AND deleted_at IS NULL", [key]);
    return found ? toMonitor(found) : undefined;
  },
  async byId(tx, id) {
    const found = await row(tx, "SELECT * FROM monitors WHERE id = $1 AND deleted_at IS NULL", [id]);
    return found ? toMonitor(found) : undefined;
  },
  async list(tx, options = {}) {
    const where = ["deleted_at IS NULL"];
    const args: unknown[] = [];
    if (options.source) where.push(`source = $${args.push(options.source)}`);
    if (options.teamId !== undefined) where.push(`team_id = $${args.push(options.teamId)}`);
    return (await rows(tx, `SELECT * FROM monitors WHERE ${where.join(" AND ")} ORDER BY name, id`, args)).map(toMonitor);
  },
  async remove(tx, id) {
    await run(tx, "UPDATE monitors SET deleted_at = $1 WHERE id = $2", [tx.now, id]);
  },
  async markGone(tx, id) {
    await run(tx, "UPDATE monitors SET gone_at = $1, next_due = NULL WHERE id = $2 AND gone_at IS NULL", [tx.now, id]);
  },
  async setNextDue(tx, id, nextDue) {
    await run(tx, "UPDATE monitors SET next_due = $1 WHERE id = $2", [nextDue, id]);
  },
  async claim(tx, monitorId, slot, options) {
    const done = options.status !== "running";
    const id = await value<number>(
      tx,
      `INSERT INTO monitor_checks (monitor_id, slot, trigger, status, started_at, finished_at, error, owner_host, owner_pid) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (monitor_id, slot) DO NOTHING RETURNING id`,
      [monitorId, slot, options.trigger, options.status, tx.now, done ? tx.now : null, options.error ?? null, options.owner?.host ?? null, options.owner?.pid ?? null],
    );
    if (id === undefined) return undefined;
    if (options.advance !== false) await run(tx, "UPDATE monitors SET last_slot = $1 WHERE id = $2 AND (last_slot IS NULL OR last_slot < $1)", [slot, monitorId]);
    return check(tx, id);
  },
  async setCheckRun(tx, checkId, runId) {
    await run(tx, "UPDATE monitor_checks SET run_id = $1 WHERE id = $2", [runId, checkId]);
  },
  async adoptCheck(tx, checkId, owner) {
    await run(tx, "UPDATE monitor_checks SET status = 'running', owner_host = $1, owner_pid = $2 WHERE id = $3", [owner.host, owner.pid, checkId]);
  },
  async finishCheck(tx, checkId, status, result) {
    await run(tx, "UPDATE monitor_checks SET status = $1, finished_at = $2, summary = $3, error = $4 WHERE id = $5", [status, status === "interrupted" ? null : tx.now, result.summary ? JSON.stringify(result.summary) : null, result.error ?? null, checkId]);
  },
  check,
  async checks(tx, monitorId, options = {}) {
    return (await rows(tx, "SELECT * FROM monitor_checks WHERE monitor_id = $1 ORDER BY id DESC LIMIT $2", [monitorId, options.limit ?? 100])).map(toCheck);
  },
  async latestCheck(tx, monitorId) {
    const found = await row(tx, "SELECT * FROM monitor_checks WHERE monitor_id = $1 ORDER BY id DESC LIMIT 1", [monitorId]);
    return found ? toCheck(found) : undefined;
  },
  async unfinishedChecks(tx) {
    return (await rows(tx, "SELECT * FROM monitor_checks WHERE status IN ('running', 'interrupted') ORDER BY id")).map(toCheck);
  },
  async addNotifications(tx, checkId, deliveries) {
    for (const d of deliveries) {
      await run(tx, "INSERT INTO monitor_notifications (check_id, channel, target, event, sent, status, attempts, error, at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)", [checkId, d.channel, d.target, d.event, d.sent ? 1 : 0, d.status ?? null, d.attempts, d.error ?? null, tx.now]);
    }
  },
  async queueNotifications(tx, checkId, items) {
    const ids: number[] = [];
    for (const item of items) {
      ids.push((await value<number>(tx, "INSERT INTO monitor_outbox (check_id, channel_index, channel, target, event, message, at) VALUES ($1, $2, $3, '', $4, $5, $6) RETURNING id", [checkId, item.channelIndex, item.channel.type, item.message.event, JSON.stringify(item.message), tx.now]))!);
    }
    return ids;
  },
  async settleNotification(tx, outboxId, delivery) {
    const checkId = await value<number>(tx, "DELETE FROM monitor_outbox WHERE id = $1 RETURNING check_id", [outboxId]);
    if (checkId !== undefined) await MONITOR_TABLES.addNotifications(tx, checkId, [delivery]);
  },
  async pendingNotifications(tx, checkId) {
    return (await rows(tx, "SELECT id, channel_index, message FROM monitor_outbox WHERE check_id = $1 ORDER BY id", [checkId])).map((r) => ({ id: r.id as number, channelIndex: r.channel_index as number, message: JSON.parse(r.message as string) as OutgoingNotification }));
  },
  async hasNotifications(tx, checkId) {
    return (await value(tx, "SELECT 1 FROM monitor_outbox WHERE check_id = $1 UNION ALL SELECT 1 FROM monitor_notifications WHERE check_id = $1 LIMIT 1", [checkId])) !== undefined;
  },
  async notifications(tx, checkId) {
    return (await rows(tx, "SELECT * FROM monitor_notifications WHERE check_id = $1 ORDER BY id", [checkId])).map(toNotification);
  },
  async failedNotifications(tx, limit = 50) {
    const ids = await column<number>(tx, "SELECT check_id FROM monitor_notifications WHERE sent = 0 GROUP BY check_id ORDER BY MAX(id) DESC LIMIT $1", [limit]);
    const out = [];
    for (const id of ids) out.push(...(await MONITOR_TABLES.notifications(tx, id)).filter((n) => !n.sent));
    return out;
  },
  async pruneSnapshots(tx, tag, before) {
    return changes(
      tx,
      `DELETE FROM snapshots s WHERE s.branch = $1 AND s.last_seen_at < $2
         AND s.version < (SELECT MAX(s2.version) FROM snapshots s2 WHERE s2.url = s.url AND s2.branch = s.branch)`,
      [snapshotBranch(tag), before],
    );
  },
};
