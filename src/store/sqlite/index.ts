/** The SQLite store (better-sqlite3): the Store port and the tables of serve, monitors, sessions and the UI in one file. */
export { SqliteStore, type SqliteStoreOptions } from "./sqlite-store.js";
export { SqliteServeTables } from "./serve-tables.js";
export type { RunWarning } from "./warnings.js";
export { SqliteUiReads } from "./ui-reads.js";
export { SessionTable } from "./sessions.js";
export { SqliteMonitorTables } from "./monitors.js";
export { SqliteJobWebhookTables } from "./job-webhooks.js";
