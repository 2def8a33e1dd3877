// Monitors, their checks, notifications and outbox on PostgreSQL (the thread's side; ../tables.ts says what each does).
import type { OutgoingNotification } from "../../core/index.js";
import { snapshotBranch } from "../change-codec.js";
import type { MonitorTables } from "../tables.js";
import { toCheck, toMonitor, toNotification, toQueued } from "../table-rows.js";
import type { OnThread } from "./on-thread.js";
import type { Row } from "../rows.js";
import { changes, column, row, rows, run, value, type Tx } from "./sql.js";

/**
 * Leases are on the database's clock, so watchers on machines whose clocks disagree agree on when
 * one ends: NOW_ISO is now as an ISO time (the form lease_until is kept in), until(n) now + $n ms.
 */
const NOW_ISO = `to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const until = (n: number) => `to_char((clock_timestamp() AT TIME ZONE 'UTC') + $${n}::double precision * interval '1 millisecond', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
/** A check's columns and the database's clock as they were read (its lease's time left is counted from it). */
const CHECK = "*, (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::bigint AS read_at_ms";
const readCheck = (r: Row) => toCheck(r, Number(r.read_at_ms));

async function check(tx: Tx, id: number) {
  const found = await row(tx, `SELECT ${CHECK} FROM monitor_checks WHERE id = $1`, [id]);
  return found ? readCheck(found) : undefined;
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
    if (options.lastSlot !== undefined) {
      // A monitor another watcher is claiming this moment is skipped, not waited for; one claimed since the decision read it is left.
      const locked = await row(tx, "SELECT last_slot FROM monitors WHERE id = $1 FOR UPDATE SKIP LOCKED", [monitorId]);
      if (!locked || (locked.last_slot ?? null) !== options.lastSlot) return undefined;
    }
    const id = await value<number>(
      tx,
      `INSERT INTO monitor_checks (monitor_id, slot, trigger, status, started_at, finished_at, error, owner_host, owner_pid, lease_until)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, CASE WHEN $10::double precision IS NULL THEN NULL ELSE ${until(10)} END)
       ON CONFLICT (monitor_id, slot) DO NOTHING RETURNING id`,
      [monitorId, slot, options.trigger, options.status, tx.now, done ? tx.now : null, options.error ?? null, options.owner?.host ?? null, options.owner?.pid ?? null, done ? null : (options.leaseMs ?? null)],
    );
    if (id === undefined) return undefined;
    if (options.advance !== false) await run(tx, "UPDATE monitors SET last_slot = $1 WHERE id = $2 AND (last_slot IS NULL OR last_slot < $1)", [slot, monitorId]);
    return check(tx, id);
  },
  async setCheckRun(tx, checkId, runId) {
    await run(tx, "UPDATE monitor_checks SET run_id = $1 WHERE id = $2", [runId, checkId]);
  },
  async adoptCheck(tx, checkId, previous, lease) {
    // Watchers taking the same check at once: the one that locks the row first takes it; the others
    // skip it (or, after its commit, find the owner changed) and take nothing. A row a stalled
    // process holds locked is skipped too, not waited for.
    const taken = await changes(
      tx,
      `UPDATE monitor_checks SET status = 'running', owner_host = $1, owner_pid = $2, lease_until = ${until(3)}
       WHERE id IN (SELECT id FROM monitor_checks WHERE id = $4 AND status IN ('running', 'interrupted') AND owner_host IS NOT DISTINCT FROM $5::text AND owner_pid IS NOT DISTINCT FROM $6::integer FOR UPDATE SKIP LOCKED)`,
      [lease.owner.host, lease.owner.pid, lease.ms, checkId, previous?.host ?? null, previous?.pid ?? null],
    );
    if (taken === 0) return undefined;
    await run(
      tx,
      `UPDATE monitor_outbox SET holder_host = $1, holder_pid = $2, lease_until = ${until(3)} WHERE check_id = $4 AND holder_host IS NOT DISTINCT FROM $5::text AND holder_pid IS NOT DISTINCT FROM $6::integer`,
      [lease.owner.host, lease.owner.pid, lease.ms, checkId, previous?.host ?? null, previous?.pid ?? null],
    );
    return check(tx, checkId);
  },
  async renewLeases(tx, lease) {
    await run(tx, `UPDATE monitor_outbox SET lease_until = ${until(1)} WHERE holder_host = $2 AND holder_pid = $3`, [lease.ms, lease.owner.host, lease.owner.pid]);
    return column<number>(tx, `UPDATE monitor_checks SET lease_until = ${until(1)} WHERE status = 'running' AND owner_host = $2 AND owner_pid = $3 RETURNING id`, [lease.ms, lease.owner.host, lease.owner.pid]);
  },
  async finishCheck(tx, checkId, status, result, owner) {
    await run(
      tx,
      "UPDATE monitor_checks SET status = $1, finished_at = $2, summary = $3, error = $4, lease_until = NULL WHERE id = $5 AND ($6::text IS NULL OR (owner_host = $6 AND owner_pid = $7::integer))",
      [status, status === "interrupted" ? null : tx.now, result.summary ? JSON.stringify(result.summary) : null, result.error ?? null, checkId, owner?.host ?? null, owner?.pid ?? null],
    );
  },
  check,
  async checks(tx, monitorId, options = {}) {
    return (await rows(tx, `SELECT ${CHECK} FROM monitor_checks WHERE monitor_id = $1 ORDER BY id DESC LIMIT $2`, [monitorId, options.limit ?? 100])).map(readCheck);
  },
  async latestCheck(tx, monitorId) {
    const found = await row(tx, `SELECT ${CHECK} FROM monitor_checks WHERE monitor_id = $1 ORDER BY id DESC LIMIT 1`, [monitorId]);
    return found ? readCheck(found) : undefined;
  },
  async unfinishedChecks(tx) {
    return (await rows(tx, `SELECT ${CHECK} FROM monitor_checks WHERE status IN ('running', 'interrupted') ORDER BY id`)).map(readCheck);
  },
  async addNotifications(tx, checkId, deliveries) {
    for (const d of deliveries) {
      await run(tx, "INSERT INTO monitor_notifications (check_id, channel, target, event, sent, status, attempts, error, at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)", [checkId, d.channel, d.target, d.event, d.sent ? 1 : 0, d.status ?? null, d.attempts, d.error ?? null, tx.now]);
    }
  },
  async queueNotifications(tx, checkId, items, lease) {
    const ids: number[] = [];
    for (const item of items) {
      ids.push(
        (await value<number>(
          tx,
          `INSERT INTO monitor_outbox (check_id, channel_index, channel, target, event, message, at, holder_host, holder_pid, lease_until)
           VALUES ($1, $2, $3, '', $4, $5, $6, $7, $8, CASE WHEN $9::double precision IS NULL THEN NULL ELSE ${until(9)} END) RETURNING id`,
          [checkId, item.channelIndex, item.channel.type, item.message.event, JSON.stringify(item.message), tx.now, lease?.owner.host ?? null, lease?.owner.pid ?? null, lease?.ms ?? null],
        ))!,
      );
    }
    return ids;
  },
  async settleNotification(tx, outboxId, delivery) {
    const checkId = await value<number>(tx, "DELETE FROM monitor_outbox WHERE id = $1 RETURNING check_id", [outboxId]);
    if (checkId !== undefined) await MONITOR_TABLES.addNotifications(tx, checkId, [delivery]);
    return checkId !== undefined;
  },
  async pendingNotifications(tx, checkId) {
    return (await rows(tx, "SELECT id, channel_index, message FROM monitor_outbox WHERE check_id = $1 ORDER BY id", [checkId])).map(toQueued);
  },
  async claimNotifications(tx, checkId, lease) {
    // Rows another watcher is taking or settling this moment are skipped, not waited for.
    const taken = await rows(
      tx,
      `UPDATE monitor_outbox SET holder_host = $1, holder_pid = $2, lease_until = ${until(3)}
       WHERE id IN (SELECT id FROM monitor_outbox WHERE check_id = $4 AND (lease_until IS NULL OR lease_until < ${NOW_ISO} OR (holder_host = $1 AND holder_pid = $2)) FOR UPDATE SKIP LOCKED)
       RETURNING id, channel_index, message`,
      [lease.owner.host, lease.owner.pid, lease.ms, checkId],
    );
    return taken.map(toQueued).sort((a, b) => a.id - b.id);
  },
  async holdsNotification(tx, outboxId, lease) {
    return (await changes(tx, `UPDATE monitor_outbox SET lease_until = ${until(1)} WHERE id = $2 AND holder_host = $3 AND holder_pid = $4`, [lease.ms, outboxId, lease.owner.host, lease.owner.pid])) > 0;
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
