import { randomUUID } from "node:crypto";
import type { JobWebhookEvent, NotifyChannel, OutgoingNotification, ServeJobKind } from "../../core/index.js";
import type { JobWebhookTables } from "../../store/index.js";

/** The service's name of each job kind in event types (crawl.page, batch_scrape.page, extract.completed). */
export type WebhookJobKind = "crawl" | "batch_scrape" | "extract";

/** The jobs that tell a webhook, by kind, and their name in its event types. */
export const WEBHOOK_KIND: Record<"crawl" | "batch" | "extract", WebhookJobKind> = { crawl: "crawl", batch: "batch_scrape", extract: "extract" };

/** One message in the service's envelope; its webhookId stays the same on every try. */
export function jobMessage(jobId: string, type: JobWebhookEvent, data: unknown, error: string | undefined): OutgoingNotification {
  const success = error === undefined;
  return {
    event: type,
    json: { type, id: jobId, data },
    subject: `[scrapeline] ${type} ${jobId}`,
    text: `${type} ${jobId}${error ? `: ${error}` : ""}`,
    service: { success, type, id: jobId, webhookId: randomUUID(), data, ...(error !== undefined ? { error } : {}) },
  };
}

/** The channel a job's messages were recorded with, when it hears events of `type`. */
export function channelHearing(tables: JobWebhookTables, jobId: string, type: JobWebhookEvent): NotifyChannel | undefined {
  const stored = tables.channel(jobId);
  if (!stored || (stored.type === "webhook" && stored.events && !stored.events.includes(type))) return undefined;
  return stored;
}

/**
 * Records how a crawl or batch scrape ended for its webhook, held by no sender: the next live
 * serve replica sends it (signed with its secret) when it looks for messages left unsent, as it
 * does those of a replica that died. A job with no webhook, or one not hearing this end, records nothing.
 */
export function leaveJobEnd(tables: JobWebhookTables, jobId: string, kind: ServeJobKind, ended: { status: "completed" } | { status: "failed"; error: string }): boolean {
  if (kind !== "crawl" && kind !== "batch") return false;
  const type = `${WEBHOOK_KIND[kind]}.${ended.status}` as JobWebhookEvent;
  const channel = channelHearing(tables, jobId, type);
  if (!channel) return false;
  tables.queue(jobId, channel, jobMessage(jobId, type, [], ended.status === "failed" ? ended.error : undefined));
  return true;
}
