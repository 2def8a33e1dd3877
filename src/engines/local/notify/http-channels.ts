import { createHmac } from "node:crypto";
import type { Delivery, NotifyChannel, OutgoingNotification } from "../../../core/index.js";
import { isScrapelineError } from "../../../core/index.js";
import type { FetchGate } from "../fetch/index.js";
import { TIMEOUT_MS, withRetries, type Sleep, type TryOutcome } from "./retry.js";

/** HMAC-SHA256 of the body with the secret, as sent in X-Scrapeline-Signature. */
export function signature(secret: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

/** The scheme, host and port of a URL: where a notification went, without a path that may hold a token. */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "(invalid URL)";
  }
}

/** A message with the URL's path and query (where webhooks keep their tokens) taken out. */
export function withoutPath(message: string, url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return message.split(url).join("(the URL)");
  }
  const hidden = `${parsed.origin}/…`;
  let out = message;
  let decoded = parsed.href;
  try {
    decoded = decodeURI(parsed.href);
  } catch {
    // Not valid UTF-8 once decoded: only the encoded forms can appear.
  }
  for (const form of new Set([url, parsed.href, decoded])) if (form.length > parsed.origin.length + 1) out = out.split(form).join(hidden);
  const rest = `${parsed.pathname}${parsed.search}`;
  return rest.length > 1 ? out.split(rest).join("/…") : out;
}

/** Posts a webhook's JSON (signed when it has a secret) or a Slack incoming webhook's {text}. */
export async function postChannel(gate: FetchGate, channel: Extract<NotifyChannel, { type: "webhook" | "slack" }>, message: OutgoingNotification, sleep: Sleep): Promise<Delivery> {
  const service = channel.type === "webhook" && channel.format === "service";
  const body = channel.type === "slack" ? JSON.stringify({ text: message.text }) : JSON.stringify(service ? serviceEnvelope(channel, message) : message.json);
  // The request's own headers first: the body's type and the signature are the sender's.
  const headers: Record<string, string> = { ...(channel.type === "webhook" ? lowerCased(channel.headers) : {}), "content-type": "application/json", "user-agent": "scrapeline-notify" };
  if (channel.type === "webhook") {
    headers["x-scrapeline-event"] = message.event;
    if (channel.secret) headers["x-scrapeline-signature"] = signature(channel.secret, body);
    // Receivers written for the hosted service check its header; the signature is the same, over the raw body.
    if (channel.secret && service) headers["x-firecrawl-signature"] = signature(channel.secret, body);
  }
  const once = async (): Promise<TryOutcome> => {
    try {
      const response = await gate.fetch({ url: channel.url, method: "POST", body, headers, timeoutMs: TIMEOUT_MS, maxBodyBytes: 64 * 1024 });
      if (response.status >= 200 && response.status < 300) return { sent: true, status: response.status };
      // Client errors other than 408/429 will not get better by asking again.
      const final = response.status < 500 && response.status !== 408 && response.status !== 429;
      return { sent: false, status: response.status, error: `HTTP ${response.status}`, final };
    } catch (error) {
      const final = isScrapelineError(error, "blocked") || isScrapelineError(error, "invalid-input");
      return { sent: false, error: withoutPath(isScrapelineError(error) ? error.message : String(error), channel.url), final };
    }
  };
  const outcome = await withRetries(once, sleep);
  return { channel: channel.type, target: originOf(channel.url), event: message.event, ...outcome };
}

function lowerCased(headers: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
}

/** The hosted service's webhook envelope: {success, type, id, webhookId, data, error?, metadata?}. */
function serviceEnvelope(channel: Extract<NotifyChannel, { type: "webhook" }>, message: OutgoingNotification): Record<string, unknown> {
  const parts = message.service;
  if (!parts) return { success: true, type: message.event, id: channel.id ?? "", webhookId: "", data: message.json };
  return {
    success: parts.success,
    type: parts.type,
    id: channel.id ?? parts.id,
    webhookId: parts.webhookId,
    data: parts.data,
    ...(parts.error !== undefined ? { error: parts.error } : {}),
    ...(channel.metadata ? { metadata: channel.metadata } : {}),
  };
}
