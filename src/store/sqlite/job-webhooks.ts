import type Database from "better-sqlite3";
import type { Delivery, NotifyChannel, OutgoingNotification } from "../../core/index.js";
import type { JobWebhookDelivery, JobWebhookTables, PendingJobWebhook } from "../tables.js";

type Row = Record<string, unknown>;

/**
 * What serve's crawl, batch scrape and extract jobs send their request's webhook: each message
 * recorded before it is sent and settled with its delivery, so a server that stops in between
 * sends what is left at its next start.
 */
export class SqliteJobWebhookTables implements JobWebhookTables {
  constructor(
    private readonly db: Database.Database,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** One server holds the database: who sends is not recorded. */
  queue(jobId: string, channel: NotifyChannel, message: OutgoingNotification, _sender?: string): number {
    const { secret: _secret, ...stored } = channel as NotifyChannel & { secret?: string };
    const insert = this.db.prepare("INSERT INTO serve_job_webhooks (job_id, channel, event, message, queued_at) VALUES (?, ?, ?, ?, ?)");
    return Number(insert.run(jobId, JSON.stringify(stored), message.event, JSON.stringify(message), this.now().toISOString()).lastInsertRowid);
  }

  settle(id: number, delivery: Delivery): void {
    this.db
      .prepare("UPDATE serve_job_webhooks SET sent = ?, status = ?, attempts = ?, error = ?, settled_at = ? WHERE id = ?")
      .run(delivery.sent ? 1 : 0, delivery.status ?? null, delivery.attempts, delivery.error ?? null, this.now().toISOString(), id);
  }

  /** Messages never settled, oldest first. */
  pending(): PendingJobWebhook[] {
    return (this.db.prepare("SELECT id, job_id, channel, message FROM serve_job_webhooks WHERE settled_at IS NULL ORDER BY id").all() as Row[]).map((r) => ({
      id: r.id as number,
      jobId: r.job_id as string,
      channel: JSON.parse(r.channel as string) as NotifyChannel,
      message: JSON.parse(r.message as string) as OutgoingNotification,
    }));
  }

  /** One server holds the database: every message never settled is its to send. */
  claimPending(_sender: string): PendingJobWebhook[] {
    return this.pending();
  }

  channel(jobId: string): NotifyChannel | undefined {
    const raw = this.db.prepare("SELECT channel FROM serve_job_webhooks WHERE job_id = ? ORDER BY id DESC LIMIT 1").pluck().get(jobId) as string | undefined;
    return raw ? (JSON.parse(raw) as NotifyChannel) : undefined;
  }

  /** How each settled message of a job went, in the order they were told. */
  deliveries(jobId: string): JobWebhookDelivery[] {
    return (this.db.prepare("SELECT event, sent, status, attempts, error FROM serve_job_webhooks WHERE job_id = ? AND settled_at IS NOT NULL ORDER BY id").all(jobId) as Row[]).map((r) => ({
      event: r.event as string,
      sent: r.sent === 1,
      ...(r.status !== null ? { status: r.status as number } : {}),
      attempts: r.attempts as number,
      ...(r.error !== null ? { error: r.error as string } : {}),
    }));
  }
}
