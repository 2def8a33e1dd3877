import type { Delivery, NotifyChannel, OutgoingNotification } from "../../../core/index.js";
import { isScrapelineError } from "../../../core/index.js";
import { createAddressPolicy, resolveTarget, systemResolve } from "../fetch/index.js";
import { TIMEOUT_MS, withRetries, type Sleep, type TryOutcome } from "./retry.js";

type EmailChannel = Extract<NotifyChannel, { type: "email" }>;

/**
 * Sends a notification as mail through the channel's SMTP server with nodemailer (loaded when a
 * mail is sent). The server's name is resolved and checked against the private-network policy
 * like any page, and the connection goes to the address that was checked.
 */
export async function sendEmail(channel: EmailChannel, message: OutgoingNotification, options: { allowPrivateNetwork: boolean; sleep: Sleep }): Promise<Delivery> {
  const target = `smtp://${channel.host}:${channel.port}`;
  const once = async (): Promise<TryOutcome> => {
    let address: string;
    try {
      const checked = await resolveTarget(new URL(`http://${channel.host}/`), { policy: createAddressPolicy(), allowPrivateNetwork: options.allowPrivateNetwork, resolve: systemResolve, signal: AbortSignal.timeout(TIMEOUT_MS) });
      address = checked.addresses[0]!;
    } catch (error) {
      return { sent: false, error: isScrapelineError(error) ? error.message.replace("http://", "smtp://") : String(error), final: isScrapelineError(error, "blocked") };
    }
    const { createTransport } = (await import("nodemailer")).default;
    const transport = createTransport({
      host: address,
      port: channel.port,
      secure: channel.secure,
      ...(channel.user ? { auth: { user: channel.user, pass: channel.password ?? "" } } : {}),
      tls: { servername: channel.host },
      connectionTimeout: TIMEOUT_MS,
      greetingTimeout: TIMEOUT_MS,
      socketTimeout: TIMEOUT_MS,
    });
    try {
      await transport.sendMail({ from: channel.from, to: channel.to, subject: message.subject, text: message.text });
      return { sent: true };
    } catch (error) {
      const responseCode = (error as { responseCode?: number }).responseCode;
      // 5xx replies (bad recipient, refused login) are permanent in SMTP; 4xx and network errors are not.
      return { sent: false, error: safeMessage(error, channel), final: responseCode !== undefined && responseCode >= 500 };
    } finally {
      transport.close();
    }
  };
  const outcome = await withRetries(once, options.sleep);
  return { channel: "email", target, event: message.event, ...outcome };
}

/** The error's message without the password, should a server echo it. */
function safeMessage(error: unknown, channel: EmailChannel): string {
  const text = error instanceof Error ? error.message : String(error);
  return channel.password ? text.split(channel.password).join("***") : text;
}
