import type { Delivery, NotificationEvent, NotificationSender, NotifyChannel, NotifyConfig, OutgoingNotification, Store } from "../../core/index.js";
import { createNotificationSender } from "../../engines/local/index.js";
import { runSummary } from "./summary.js";
import { notificationId, type RunSummaryPayload } from "./payload.js";
import { checkCompletedText, failedText, pageText } from "./text.js";
import { completedEnvelope, failedEnvelope, pageEnvelope } from "./service-format.js";

export { notificationId, type PagePayload, type RunSummaryPayload } from "./payload.js";
export { runSummary } from "./summary.js";

export { signature } from "../../engines/local/index.js";

export interface NotifyOutcome {
  /** Whether every notification due was accepted. */
  sent: boolean;
  /** Why nothing was sent when nothing needed to be. */
  skipped?: string;
  /** The first failed delivery's (or else the last one's) status, attempts and error. */
  status?: number;
  attempts: number;
  error?: string;
  /** Every notification due, on every channel. */
  deliveries: Delivery[];
}

/** A notification recorded before it is sent: on which channel (its place in the config), and what. */
export interface QueuedNotification {
  id: number;
  channelIndex: number;
  message: OutgoingNotification;
}

/**
 * Where notifications wait while they are sent (a monitor check's outbox): each is queued before
 * the first is sent and settled with its delivery, so a process that dies in between leaves the
 * unsettled ones to be sent at its next start.
 */
export interface NotificationOutbox {
  queue(items: ReadonlyArray<{ channelIndex: number; channel: NotifyChannel; message: OutgoingNotification }>): number[];
  settle(id: number, delivery: Delivery): void;
  /** Whether this process still holds a queued notification; one it does not is left to its holder, not sent. */
  holds?(id: number): boolean;
}

/** The notifications a run calls for, each with the event it is. */
export function notificationsFor(summary: RunSummaryPayload, config: NotifyConfig): OutgoingNotification[] {
  const out: OutgoingNotification[] = [];
  const failedRun = summary.status === "failed" || summary.failures.length > 0;
  const tellFailures = config.on.includes("failed") && failedRun;
  if (summary.pages.length > 0 || tellFailures) {
    out.push({ event: "monitor.check.completed", json: { notificationId: notificationId(summary, "monitor.check.completed"), ...summary }, subject: `[scrapeline] ${summary.pipeline}: ${summary.pages.length} page(s) changed`, text: checkCompletedText(summary), service: completedEnvelope(summary) });
  }
  for (const page of summary.pages) {
    out.push({ event: "monitor.page", json: { notificationId: notificationId(summary, "monitor.page", `${page.stepId} ${page.url}`), event: "monitor.page", pipeline: summary.pipeline, runId: summary.runId, ...page }, subject: `[scrapeline] ${summary.pipeline}: ${page.changeStatus} ${page.url}`, text: pageText(summary.pipeline, page), service: pageEnvelope(summary, page) });
  }
  if (tellFailures) {
    const broken = summary.brokenExpectations;
    const json = { notificationId: notificationId(summary, "failed"), event: "failed", pipeline: summary.pipeline, runId: summary.runId, status: summary.status, failures: summary.failures, ...(broken ? { expectations: broken } : {}) };
    const what = broken ? "broke: its expectations failed" : summary.status === "failed" ? "failed" : "had failed pages";
    out.push({ event: "failed", json, subject: `[scrapeline] ${summary.pipeline}: run ${summary.runId} ${what}`, text: failedText(summary), service: failedEnvelope(summary) });
  }
  return out;
}

/**
 * Tells each channel what it listens to about a run, through the channel adapters (retried with
 * backoff). Never throws: the outcome lists every delivery, failed ones with their error.
 */
export async function notifyRun(store: Store, runId: number, config: NotifyConfig, options: NotifyOptions): Promise<NotifyOutcome> {
  const summary = runSummary(store, runId, config);
  const messages = notificationsFor(summary, config);
  const due = config.channels.flatMap((channel, channelIndex) => messages.filter((m) => (channel.events as readonly string[]).includes(m.event)).map((message) => ({ channelIndex, channel, message })));
  if (due.length === 0) return { sent: false, skipped: `nothing ${config.on.join(", ")} worth telling in run ${runId}`, attempts: 0, deliveries: [] };
  const ids = options.outbox?.queue(due);
  return sendQueued(config, due.map(({ channelIndex, message }, i) => ({ id: ids?.[i] ?? -1, channelIndex, message })), options);
}

export interface NotifyOptions {
  allowPrivateNetwork: boolean;
  sender?: NotificationSender;
  sleep?: (ms: number) => Promise<void>;
  outbox?: NotificationOutbox;
}

/**
 * Sends queued notifications on the config's channels (by their place in it), settling each in
 * the outbox as it goes. One whose channel is no longer there fails with that said. Never throws.
 */
export async function sendQueued(config: NotifyConfig, queued: readonly QueuedNotification[], options: NotifyOptions): Promise<NotifyOutcome> {
  if (queued.length === 0) return { sent: false, skipped: "nothing left to send", attempts: 0, deliveries: [] };
  const sender = options.sender ?? createNotificationSender({ allowPrivateNetwork: options.allowPrivateNetwork, ...(options.sleep ? { sleep: options.sleep } : {}) });
  const deliveries: Delivery[] = [];
  try {
    for (const { id, channelIndex, message } of queued) {
      if (options.outbox?.holds && id >= 0 && !options.outbox.holds(id)) continue;
      const channel: NotifyChannel | undefined = config.channels[channelIndex];
      const delivery = channel
        ? await safely(() => sender.deliver(channel, message), channel.type, message.event)
        : { channel: "webhook" as const, target: "", event: message.event, sent: false, attempts: 0, error: `the pipeline has no channel ${channelIndex + 1} any more` };
      if (options.outbox && id >= 0) options.outbox.settle(id, delivery);
      deliveries.push(delivery);
    }
  } finally {
    if (!options.sender) await sender.close();
  }
  if (deliveries.length === 0) return { sent: false, skipped: "another process holds them now", attempts: 0, deliveries };
  const first = deliveries.find((d) => !d.sent) ?? deliveries[deliveries.length - 1]!;
  return { sent: deliveries.every((d) => d.sent), ...(first.status !== undefined ? { status: first.status } : {}), attempts: first.attempts, ...(first.error ? { error: first.error } : {}), deliveries };
}

async function safely(deliver: () => Promise<Delivery>, channel: Delivery["channel"], event: NotificationEvent): Promise<Delivery> {
  try {
    return await deliver();
  } catch (error) {
    return { channel, target: "", event, sent: false, attempts: 1, error: error instanceof Error ? error.message : String(error) };
  }
}
