import type { Delivery, JobWebhookEvent, NotificationSender, NotifyChannel, NotifyConfig, OutgoingNotification } from "../../core/index.js";
import { ScrapelineError } from "../../core/index.js";
import { createNotificationSender } from "../../engines/local/index.js";
import type { JobWebhookTables, RunsStore } from "../../store/index.js";
import type { Document, ServeJob } from "../../core/index.js";
import { channelHearing, inlineAssets, jobMessage, WEBHOOK_KIND, type WebhookJobKind } from "../common/index.js";
import { sendQueued } from "../notify/index.js";
import { extractReply } from "./job-status.js";
import { JOB_STEP_ID } from "./jobs.js";

/** What a job tells its webhook about, as a request's `webhook.events` names it. */
export type JobPhase = "started" | "page" | "completed" | "failed" | "cancelled";
const PHASES: readonly JobPhase[] = ["started", "page", "completed", "failed", "cancelled"];

/** A crawl, batch scrape or extract request's `webhook`: a URL, or `{url, headers, metadata, events}`. */
export interface JobWebhook {
  url: string;
  headers?: Record<string, string>;
  metadata?: Record<string, unknown>;
  events: JobPhase[];
}


const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
const bad = (message: string) => new ScrapelineError("invalid-input", `Bad request: ${message}`);

/**
 * Takes `webhook` out of a request body (the rest is read as a pipeline step, which has none):
 * the body without it, and the webhook checked. Events are the service's short names (page) or
 * its typed ones (crawl.page); none listed means all of them.
 */
export function takeWebhook(raw: unknown): { body: unknown; webhook?: JobWebhook } {
  if (!isObject(raw) || !("webhook" in raw)) return { body: raw };
  const { webhook: value, ...body } = raw;
  if (value === undefined || value === null) return { body };
  const form = typeof value === "string" ? { url: value } : value;
  if (!isObject(form)) throw bad("webhook must be a URL or an object {url, headers, metadata, events}");
  const unknown = Object.keys(form).filter((k) => !["url", "headers", "metadata", "events"].includes(k));
  if (unknown.length > 0) throw new ScrapelineError("invalid-input", `Unrecognized key in body -- webhook.${unknown[0]} (webhook takes url, headers, metadata and events)`);
  if (typeof form.url !== "string" || !/^https?:\/\/[^/]/i.test(form.url)) throw bad("webhook.url must be an http(s) URL");
  try {
    new URL(form.url);
  } catch {
    throw bad(`webhook.url is not a valid URL: ${JSON.stringify(form.url)}`);
  }
  const webhook: JobWebhook = { url: form.url, events: [...PHASES] };
  if (form.headers !== undefined) {
    if (!isObject(form.headers) || !Object.values(form.headers).every((v) => typeof v === "string")) throw bad("webhook.headers must be an object of strings");
    webhook.headers = form.headers as Record<string, string>;
  }
  if (form.metadata !== undefined) {
    if (!isObject(form.metadata)) throw bad("webhook.metadata must be an object");
    webhook.metadata = form.metadata;
  }
  if (form.events !== undefined) {
    if (!Array.isArray(form.events) || form.events.length === 0) throw bad(`webhook.events must be a non-empty list of ${PHASES.join(", ")}`);
    const events = form.events.map((e) => (typeof e === "string" ? e.replace(/^(crawl|batch_scrape|extract)\./, "") : e));
    const wrong = events.find((e) => !PHASES.includes(e as JobPhase));
    if (wrong !== undefined) throw bad(`webhook.events has ${JSON.stringify(wrong)}; the events are ${PHASES.join(", ")}`);
    webhook.events = [...new Set(events as JobPhase[])];
  }
  return { body, webhook };
}

/** A job's messages to its webhook, sent one after another in the order they are told. */
export interface JobNotifier {
  tell(phase: JobPhase, data: unknown, error?: string): void;
}

export interface JobWebhookOptions {
  allowPrivateNetwork: boolean;
  /** Signs every post (X-Firecrawl-Signature and X-Scrapeline-Signature: sha256 HMAC of the body). */
  secret?: string;
  /** Where each message is recorded before it is sent and settled after (the outbox). */
  tables?: JobWebhookTables;
  /** This server's token: the messages it records are its to send while it is alive. */
  sender?: string;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * The webhooks of serve's jobs: the monitors' webhook sender (fetch gate and its network policy,
 * retries with backoff, signature) carrying the service's envelope
 * `{success, type, id, webhookId, data, error?, metadata?}` with the job's id.
 */
export class JobWebhooks {
  private sender: NotificationSender | undefined;
  private readonly pending = new Set<Promise<void>>();
  /** Each job's last message told, so the next waits behind it (whether this server told it or took it over). */
  private readonly chains = new Map<string, Promise<void>>();

  constructor(private readonly options: JobWebhookOptions) {}

  /** A job's notifier; its messages wait behind one another, so the receiver gets started, pages, then the end. */
  open(jobId: string, kind: WebhookJobKind, webhook: JobWebhook): JobNotifier {
    const channel: NotifyChannel = {
      type: "webhook",
      url: webhook.url,
      events: webhook.events.map((phase) => `${kind}.${phase}` as JobWebhookEvent),
      format: "service",
      id: jobId,
      ...(this.options.secret ? { secret: this.options.secret } : {}),
      ...(webhook.metadata ? { metadata: webhook.metadata } : {}),
      ...(webhook.headers ? { headers: webhook.headers } : {}),
    };
    return {
      tell: (phase, data, error) => {
        if (webhook.events.includes(phase)) this.tellOn(jobId, channel, `${kind}.${phase}` as JobWebhookEvent, data, error);
      },
    };
  }

  /**
   * Tells the webhook of a job that another server started (and that was taken over from it) how
   * it ended, on the channel its messages were recorded with, when its events include that one.
   */
  tellTakenOver(jobId: string, kind: WebhookJobKind, phase: JobPhase, data: unknown, error?: string): void {
    const type = `${kind}.${phase}` as JobWebhookEvent;
    const stored = this.options.tables ? channelHearing(this.options.tables, jobId, type) : undefined;
    if (!stored) return;
    this.tellOn(jobId, this.signed(stored), type, data, error);
  }

  /** Tells the webhook of a job taken over from another server how it ended (as jobEnd reads it), when it is a job that tells one. */
  tellEnded(store: RunsStore, job: ServeJob): void {
    if (job.kind in WEBHOOK_KIND) this.tellTakenOver(job.id, WEBHOOK_KIND[job.kind as keyof typeof WEBHOOK_KIND], ...jobEnd(store, job));
  }

  private tellOn(jobId: string, channel: NotifyChannel, type: JobWebhookEvent, data: unknown, error: string | undefined): void {
    const message = jobMessage(jobId, type, data, error);
    const id = this.options.tables?.queue(jobId, channel, message, this.options.sender) ?? -1;
    this.after(jobId, channel, id, message);
  }

  private signed(channel: NotifyChannel): NotifyChannel {
    return { ...channel, ...(this.options.secret ? { secret: this.options.secret } : {}) } as NotifyChannel;
  }

  /**
   * Sends what a server that stopped had recorded and not delivered, each job's messages in their
   * order. Each message is claimed first, so one replica sends it; one in flight when its sender
   * stopped may arrive twice, with the same webhookId.
   */
  resendLeftOver(): void {
    for (const item of this.options.tables?.claimPending(this.options.sender ?? "") ?? []) this.after(item.jobId, this.signed(item.channel), item.id, item.message);
  }

  /** Sends a message once the job's one before it is settled, and settles it in the outbox. */
  private after(jobId: string, channel: NotifyChannel, id: number, message: OutgoingNotification): void {
    const previous = this.chains.get(jobId) ?? Promise.resolve();
    const config: NotifyConfig = { channels: [channel], on: [], rules: { addedOnly: false, keywords: [], ignore: [] } };
    const tables = this.options.tables;
    const outbox = tables ? { queue: () => [], settle: (outboxId: number, delivery: Delivery) => tables.settle(outboxId, delivery) } : undefined;
    const next = previous.then(async () => {
      await sendQueued(config, [{ id, channelIndex: 0, message }], { allowPrivateNetwork: this.options.allowPrivateNetwork, sender: this.senderNow(), ...(outbox ? { outbox } : {}), ...(this.options.sleep ? { sleep: this.options.sleep } : {}) });
    });
    this.pending.add(next);
    this.chains.set(jobId, next);
    void next.finally(() => {
      this.pending.delete(next);
      if (this.chains.get(jobId) === next) this.chains.delete(jobId);
    });
  }

  /** Waits for every message told so far to be delivered or given up, then closes the sender. */
  async close(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
    await this.sender?.close();
    this.sender = undefined;
  }

  private senderNow(): NotificationSender {
    this.sender ??= createNotificationSender({ allowPrivateNetwork: this.options.allowPrivateNetwork, ...(this.options.sleep ? { sleep: this.options.sleep } : {}) });
    return this.sender;
  }
}

/** How a finished job ends as its webhook hears it: completed (an extract's result as data), failed with the error, or cancelled. */
export function jobEnd(store: RunsStore, job: ServeJob): [JobPhase, unknown, string?] {
  if (job.kind === "extract") {
    const reply = extractReply(store, job) as { status: string; data?: unknown; error?: string };
    if (reply.status === "completed") return ["completed", reply.data ?? null];
    return reply.status === "cancelled" ? ["cancelled", []] : ["failed", [], reply.error ?? "the extract failed"];
  }
  if (job.status === "cancelled") return ["cancelled", []];
  if (job.status === "failed") return ["failed", [], job.error ?? `the ${job.kind === "crawl" ? "crawl" : "batch scrape"} failed`];
  return ["completed", []];
}

/** A page a job has just stored, as status pages give it (a page event carries it). */
export function storedPage(store: RunsStore, runId: number, url: string): Document[] {
  for (const stored of store.documents(runId, JOB_STEP_ID, new Set([url]))) return [inlineAssets(stored.document, store)];
  return [];
}
