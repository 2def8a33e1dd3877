import type { NotificationEvent, NotifyChannel } from "./types.js";

/** One notification, in the forms the channels need: JSON for webhooks, text for Slack and mail. */
export interface OutgoingNotification {
  event: NotificationEvent;
  /** The JSON body a webhook receives. */
  json: unknown;
  /** A one-line title (the mail's subject). */
  subject: string;
  /** The readable summary (Slack's text, the mail's body). */
  text: string;
  /** What a webhook of format service receives in the hosted service's envelope. */
  service?: ServiceWebhookParts;
}

/** The parts of the hosted service's webhook envelope `{success, type, id, webhookId, data, error?, metadata?}` a notification fills. */
export interface ServiceWebhookParts {
  success: boolean;
  /** monitor.page, monitor.check.completed or monitor.check.failed. */
  type: string;
  /** The envelope's id when the channel names none (the pipeline's name). */
  id: string;
  /** One id per notification, the same on every try and after a restart. */
  webhookId: string;
  data: unknown;
  error?: string;
}

/** What became of one notification on one channel. Never a secret: `target` is an origin or host. */
export interface Delivery {
  channel: NotifyChannel["type"];
  target: string;
  event: NotificationEvent;
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
