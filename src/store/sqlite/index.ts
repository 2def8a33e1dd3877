/** The SQLite store (better-sqlite3): the Store port and the tables of serve, monitors, sessions and the UI in one file. */
export { SqliteStore, type SqliteStoreOptions } from "./sqlite-store.js";
export { DEFAULT_THREAT_POLICY, ServeTables, type NewTeam, type ServeOwner } from "./serve-tables.js";
export type { RunWarning } from "./warnings.js";
export { UiReads, type ChangeCounts, type ReadScope, type RunListRow, type StepEntry } from "./ui-reads.js";
export { SessionTable } from "./sessions.js";
export { MonitorTables, type CheckRecord, type MonitorRecord, type NotificationRecord } from "./monitors.js";
export { JobWebhookTables, type JobWebhookDelivery, type PendingJobWebhook } from "./job-webhooks.js";
export { FetchedPageTable, type FetchedAnswer, type Described } from "./fetched-pages.js";
