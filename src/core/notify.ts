import type { MonitorEvent, NotifyChannel } from "./types.js";

/** One notification, in the forms the channels need: JSON for webhooks, text for Slack and mail. */
export interface OutgoingNotification {
  event: MonitorEvent;
  /** The JSON body a webhook receives. */
  json: unknown;
  /** A one-line title (the mail's subject). */
  subject: string;
  /** The readable summary (Slack's text, the mail's body). */
  text: string;
}

/** What became of one notification on one channel. Never a secret: `target` is an origin or host. */
export interface Delivery {
  channel: NotifyChannel["type"];
  target: string;
  event: MonitorEvent;
  sent: boolean;
  status?: number;
  attempts: number;
  error?: string;
}

/** The port channel adapters implement: delivers one notification, never throws. */
export interface NotificationSender {
  deliver(channel: NotifyChannel, message: OutgoingNotification): Promise<Delivery>;
  close(): Promise<void>;
}
