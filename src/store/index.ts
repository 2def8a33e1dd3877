export { SqliteStore, type SqliteStoreOptions } from "./sqlite/index.js";
export { DEFAULT_THREAT_POLICY, ServeTables, type NewTeam, type ServeOwner } from "./sqlite/index.js";
export type { RunWarning } from "./sqlite/index.js";
export { UiReads, type ChangeCounts, type ReadScope, type RunListRow, type StepEntry } from "./sqlite/index.js";
export { SessionTable } from "./sqlite/index.js";
export { SECRET_KEY_ENV, TextSealer } from "./secret-box.js";
export { MonitorTables, type CheckRecord, type MonitorRecord, type NotificationRecord } from "./sqlite/index.js";
export { JobWebhookTables, type JobWebhookDelivery, type PendingJobWebhook } from "./sqlite/index.js";
export { FetchedPageTable, type FetchedAnswer, type Described as FetchedDescription } from "./sqlite/index.js";
export { PostgresStore, type PostgresStoreOptions } from "./postgres/index.js";

/** A store of runs, pages and change histories, on either database. */
export type RunsStore = import("./sqlite/index.js").SqliteStore | import("./postgres/index.js").PostgresStore;
