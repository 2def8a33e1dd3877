export { SqliteStore, type SqliteStoreOptions } from "./sqlite/index.js";
export { SqliteServeTables, SqliteMonitorTables, SqliteJobWebhookTables, SqliteUiReads } from "./sqlite/index.js";
export type { RunWarning } from "./sqlite/index.js";
export { SessionTable } from "./sqlite/index.js";
export { SECRET_KEY_ENV, TextSealer } from "./secret-box.js";
export { DEFAULT_THREAT_POLICY, REQUEST_WINDOW_MS } from "./tables.js";
export type { ServeTables, NewTeam, ServeOwner, MonitorTables, CheckRecord, Lease, MonitorRecord, NotificationRecord, QueuedNotification, RequestWindow, ServeReplica, TakenOverJob } from "./tables.js";
export type { CrawlFrontierTables, FrontierClaim, FrontierPage, SharedCrawl } from "./crawl-frontier.js";
export type { JobWebhookTables, JobWebhookDelivery, PendingJobWebhook, UiReads, ChangeCounts, ReadScope, RunListRow, StepEntry, StoreTables } from "./tables.js";
export type { FetchedAnswer, FetchedDescription, FetchedPages } from "./fetched-answer.js";
export { PostgresStore, type PostgresStoreOptions } from "./postgres/index.js";

/** A store of runs, pages and change histories, on either database. */
export type RunsStore = import("./sqlite/index.js").SqliteStore | import("./postgres/index.js").PostgresStore;
