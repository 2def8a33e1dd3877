// The webhook messages of serve's jobs on PostgreSQL (the thread's side; ../tables.ts says what each does).
import type { NotifyChannel, OutgoingNotification } from "../../core/index.js";
import type { JobWebhookTables, PendingJobWebhook } from "../tables.js";
import type { Row } from "../rows.js";
import type { OnThread } from "./on-thread.js";
import { rows, run, value } from "./sql.js";

/** The lock a replica takes to claim messages left unsent (any fixed number: "hook" in ASCII). */
const OUTBOX_LOCK = 0x686f6f6b;

const toPending = (r: Row): PendingJobWebhook => ({
  id: r.id as number,
  jobId: r.job_id as string,
  channel: JSON.parse(r.channel as string) as NotifyChannel,
  message: JSON.parse(r.message as string) as OutgoingNotification,
});

export const JOB_WEBHOOK_TABLES: OnThread<JobWebhookTables> = {
  async queue(tx, jobId, channel, message, sender) {
    const { secret: _secret, ...stored } = channel as NotifyChannel & { secret?: string };
    return (await value<number>(tx, "INSERT INTO serve_job_webhooks (job_id, channel, event, message, queued_at, sender) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id", [jobId, JSON.stringify(stored), message.event, JSON.stringify(message), tx.now, sender ?? null]))!;
  },
  async settle(tx, id, delivery) {
    await run(tx, "UPDATE serve_job_webhooks SET sent = $1, status = $2, attempts = $3, error = $4, settled_at = $5 WHERE id = $6", [delivery.sent ? 1 : 0, delivery.status ?? null, delivery.attempts, delivery.error ?? null, tx.now, id]);
  },
  async pending(tx) {
    return (await rows(tx, "SELECT id, job_id, channel, message FROM serve_job_webhooks WHERE settled_at IS NULL ORDER BY id")).map(toPending);
  },
  /**
   * Under the outbox's lock, so that a job's messages are claimed together (and sent in order) by
   * one replica: a replica that finds the lock taken claims nothing this time, and at its next
   * check finds them held by a live replica.
   */
  async claimPending(tx, sender) {
    if ((await value<boolean>(tx, "SELECT pg_try_advisory_xact_lock($1)", [OUTBOX_LOCK])) !== true) return [];
    const claimed = await rows(
      tx,
      "UPDATE serve_job_webhooks SET sender = $1 WHERE settled_at IS NULL AND (sender IS NULL OR sender NOT IN (SELECT token FROM serve_servers)) RETURNING id, job_id, channel, message",
      [sender],
    );
    return claimed.sort((a, b) => (a.id as number) - (b.id as number)).map(toPending);
  },
  async channel(tx, jobId) {
    const raw = await value<string>(tx, "SELECT channel FROM serve_job_webhooks WHERE job_id = $1 ORDER BY id DESC LIMIT 1", [jobId]);
    return raw ? (JSON.parse(raw) as NotifyChannel) : undefined;
  },
  async deliveries(tx, jobId) {
    return (await rows(tx, "SELECT event, sent, status, attempts, error FROM serve_job_webhooks WHERE job_id = $1 AND settled_at IS NOT NULL ORDER BY id", [jobId])).map((r) => ({
      event: r.event as string,
      sent: r.sent === 1,
      ...(r.status !== null ? { status: r.status as number } : {}),
      attempts: r.attempts as number,
      ...(r.error !== null ? { error: r.error as string } : {}),
    }));
  },
};
