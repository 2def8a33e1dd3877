export { SqliteStore, type SqliteStoreOptions } from "./sqlite-store.js";
export { DEFAULT_THREAT_POLICY, ServeTables, type NewTeam, type ServeOwner } from "./serve-tables.js";
export type { RunWarning } from "./warnings.js";
export { UiReads, type ChangeCounts, type ReadScope, type RunListRow, type StepEntry } from "./ui-reads.js";
export { SessionTable } from "./sessions.js";
export { SECRET_KEY_ENV, TextSealer } from "./secret-box.js";
export { MonitorTables, type CheckRecord, type MonitorRecord, type NotificationRecord } from "./monitors.js";
export { JobWebhookTables, type JobWebhookDelivery, type PendingJobWebhook } from "./job-webhooks.js";
export { FetchedPageTable, type FetchedAnswer, type Described as FetchedDescription } from "./fetched-pages.js";
