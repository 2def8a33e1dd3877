/** Telling a run's changes: notification rules, payloads, texts and the channels' formats. */
export { checkStatusOf } from "./check-status.js";
export { type NotificationOutbox, type NotifyOutcome, notifyRun, sendQueued } from "./notify.js";
export { runSummary } from "./summary.js";
