import type { Store } from "../../core/index.js";
import { loadPipeline, loadPipelineText } from "../../pipeline/index.js";
import type { Lease, MonitorTables } from "../../store/index.js";
import type { NotificationOutbox } from "../notify/index.js";

/**
 * A check's outbox: notifications recorded before they are sent, settled as they are. With a
 * lease, this process holds each from when it is queued, and one it no longer holds (another
 * watcher took the check over) is not sent.
 */
export function checkOutbox(tables: MonitorTables, checkId: number, lease?: () => Lease): NotificationOutbox {
  return {
    queue: (items) => tables.queueNotifications(checkId, items, lease?.()),
    settle: (id, delivery) => void tables.settleNotification(id, delivery),
    ...(lease ? { holds: (id: number) => tables.holdsNotification(id, lease()) } : {}),
  };
}

/**
 * The notifications of a check whose run finished before its process died: those left in the
 * outbox are sent again (one in flight when the process died may arrive twice, with the same
 * webhookId), and when none was ever queued (the process died before), they are worked out from
 * the run and sent. With a lease, only those this process takes are sent: ones another live
 * watcher holds are its to send. The channels are the pipeline's as it is now. Returns how many failed.
 */
export async function sendLeftOver(
  tables: MonitorTables,
  store: Store,
  checkId: number,
  runId: number,
  outbox: NotificationOutbox,
  options: { file: string; text?: string; allowPrivateNetwork?: boolean; env?: Readonly<Record<string, string | undefined>>; lease?: () => Lease },
): Promise<number> {
  const pending = options.lease ? tables.claimNotifications(checkId, options.lease()) : tables.pendingNotifications(checkId);
  if (pending.length === 0 && tables.hasNotifications(checkId)) return 0;
  const env = options.env ?? process.env;
  const loaded = options.text !== undefined ? loadPipelineText(options.file, options.text, { env }) : await loadPipeline(options.file, { env });
  const config = loaded.pipeline?.notify;
  const { notifyRun, sendQueued } = await import("../notify/index.js");
  const allowPrivateNetwork = Boolean(options.allowPrivateNetwork) || Boolean(loaded.pipeline?.allowPrivateNetwork);
  if (!config) {
    // The pipeline no longer loads or tells anyone: what was queued is recorded as not sent.
    for (const item of pending) tables.settleNotification(item.id, { channel: "webhook", target: "", event: item.message.event, sent: false, attempts: 0, error: "the pipeline no longer has these channels" });
    return pending.length;
  }
  const outcome = pending.length > 0 ? await sendQueued(config, pending, { allowPrivateNetwork, outbox }) : await notifyRun(store, runId, config, { allowPrivateNetwork, outbox });
  return outcome.deliveries.filter((d) => !d.sent).length;
}
