import type { Delivery, NotificationSender, NotifyChannel, OutgoingNotification } from "../../../core/index.js";
import { createFetchGate } from "../fetch/index.js";
import { sendEmail } from "./email-channel.js";
import { postChannel } from "./http-channels.js";
import { realSleep, type Sleep } from "./retry.js";

export { signature, originOf } from "./http-channels.js";
export { refusedNotifyTarget } from "./target-policy.js";

/**
 * The notification channels: webhook and Slack through the fetch gate, mail over SMTP. Each
 * delivery is tried up to three times with backoff, each try bounded to 10 s.
 */
export function createNotificationSender(options: { allowPrivateNetwork: boolean; sleep?: Sleep }): NotificationSender {
  const sleep = options.sleep ?? realSleep;
  const gate = createFetchGate({ allowPrivateNetwork: options.allowPrivateNetwork });
  return {
    async deliver(channel: NotifyChannel, message: OutgoingNotification): Promise<Delivery> {
      if (channel.type === "email") return sendEmail(channel, message, { allowPrivateNetwork: options.allowPrivateNetwork, sleep });
      return postChannel(gate, channel, message, sleep);
    },
    close: () => gate.close(),
  };
}
