import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import type { CacheWrite, ChangeTrackingResult, Document, ExpectationVerdict, NewRun, RunRecord, RunStatus, SnapshotRecord, SnapshotWrite, StepRecord, StepStatus, Store, StoredDocument } from "../../core/index.js";
import { snapshotKey } from "./changes.js";
import { MIGRATIONS } from "./migrations.js";
import type { RunWarning } from "./warnings.js";
import { cacheStatements } from "./statements.js";
import { packCache } from "../cache-entry.js";
import { cacheHoldsKey, readCacheEntry, writeCacheEntry } from "./page-cache.js";
import { PendingKeys, Writer } from "./writer.js";
import { SqliteChangeRecords } from "./change-records.js";
import { SqliteDocumentRecords } from "./document-records.js";
import { SqliteRunRecords } from "./run-records.js";
import { FetchedPageTable, keepFetched } from "./fetched-pages.js";
import type { FetchedAnswer, FetchedPages } from "../fetched-answer.js";
import type { JobWebhookTables, MonitorTables, ServeTables, StoreTables, UiReads } from "../tables.js";
import { SqliteServeTables } from "./serve-tables.js";
import { SqliteMonitorTables } from "./monitors.js";
import { SqliteJobWebhookTables } from "./job-webhooks.js";
import { SqliteUiReads } from "./ui-reads.js";

export interface SqliteStoreOptions {
  /** Milliseconds a writer waits for another process's lock before failing. */
  busyTimeoutMs?: number;
  now?: () => Date;
  /**
   * Pages saved in the calling thread before a writer thread (writer.ts) takes over saving pages
   * and steps' states, so that long runs commit while they fetch. Default: never (a file
   * database only; a run of the CLI uses it).
   */
  writerAfter?: number;
}

/**
 * SQLite's page cache per connection, in KiB: SQLite's own default. better-sqlite3 builds SQLite
 * with 16 MB, which a crawl's writer filled with the pages it had just written (the process
 * peaked about 13 MB higher on 2,000 pages and 26 MB on 10,000, for no speed); what is read again
 * is in the operating system's cache anyway.
 */
export const PAGE_CACHE_KIB = 2000;

/**
 * Puts the file in WAL mode. Two processes opening a new file at once may both ask, and the change
 * needs the file to itself without SQLite waiting on the busy timeout for it: the one that finds it
 * busy asks again, for as long as the busy timeout would have waited.
 */
function walMode(db: Database.Database, timeoutMs: number): void {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      db.pragma("journal_mode = WAL");
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== "SQLITE_BUSY" || Date.now() >= deadline) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
  }
}

/** The SQLite store: one file, WAL, migrations by user_version, a transaction per page. */

/**
 * The SQLite store: one file, WAL, migrations by user_version, a transaction per page. What it keeps
 * is written by run-records.ts (runs, steps, the ledger), document-records.ts (pages) and
 * change-records.ts (page histories); this class opens the file, migrates it, and hands pages to
 * the writer thread once a run has saved enough of them.
 */
export class SqliteStore implements Store, StoreTables {
  readonly db: Database.Database;
  private readonly now: () => Date;
  /** saveDocument's transaction, made once: better-sqlite3 builds four wrappers for every `transaction()`. */
  private readonly saveTransaction: (record: StoredDocument, snapshot?: SnapshotWrite, cache?: CacheWrite) => void;
  private readonly busyTimeoutMs: number;
  private readonly writerAfter: number;
  private savedHere = 0;
  private writer: Writer | undefined;
  /** Snapshots sent to the writer thread and maybe not committed yet, by branch and URL. */
  private readonly pendingSnapshots = new PendingKeys();
  /** What it keeps, each in its own tables: runs and steps, pages, change tracking. */
  private readonly runs: SqliteRunRecords;
  private readonly pages: SqliteDocumentRecords;
  private readonly changes: SqliteChangeRecords;

  constructor(path: string, options: SqliteStoreOptions = {}) {
    if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path);
    cacheStatements(this.db);
    this.now = options.now ?? (() => new Date());
    this.busyTimeoutMs = options.busyTimeoutMs ?? 10_000;
    this.writerAfter = path === ":memory:" ? Infinity : (options.writerAfter ?? Infinity);
    this.db.pragma(`busy_timeout = ${this.busyTimeoutMs}`);
    walMode(this.db, this.busyTimeoutMs);
    this.db.pragma("synchronous = NORMAL");
    this.db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
    this.db.pragma("foreign_keys = ON");
    this.migrate();
    this.changes = new SqliteChangeRecords(this.db);
    this.pages = new SqliteDocumentRecords(this.db, this.stamp, this.changes);
    this.runs = new SqliteRunRecords(this.db, this.stamp, this.pages);
    this.saveTransaction = this.db.transaction(this.pages.insertDocument).immediate;
  }

  /** Applies pending migrations; the version is read again under the write lock, so two processes opening a new file do not race. */
  private migrate(): void {
    const check = (version: number) => {
      if (version > MIGRATIONS.length) {
        throw new Error(`database schema version ${version} is newer than this scrapeline understands (${MIGRATIONS.length}); upgrade scrapeline`);
      }
    };
    check(this.db.pragma("user_version", { simple: true }) as number);
    for (;;) {
      const applied = this.db.transaction(() => {
        const version = this.db.pragma("user_version", { simple: true }) as number;
        check(version);
        if (version === MIGRATIONS.length) return false;
        this.db.exec(MIGRATIONS[version]!);
        this.db.pragma(`user_version = ${version + 1}`);
        return true;
      }).immediate();
      if (!applied) return;
    }
  }

  private readonly stamp = (): string => this.now().toISOString();

  createRun(run: NewRun): RunRecord {
    return this.runs.createRun(run);
  }

  /** The normalized pipeline a run was started with, as JSON. */
  runPlan(id: number): string | undefined {
    return this.runs.runPlan(id);
  }

  getRun(id: number): RunRecord | undefined {
    return this.runs.getRun(id);
  }

  listRuns(options: { pipelineName?: string; limit?: number } = {}): RunRecord[] {
    return this.runs.listRuns(options);
  }

  /** Keeps warnings of a run (at most MAX_RUN_WARNINGS; the rest are counted). */
  addWarnings(runId: number, warnings: readonly RunWarning[]): void {
    return this.runs.addWarnings(runId, warnings);
  }

  warnings(runId: number): RunWarning[] {
    return this.runs.warnings(runId);
  }

  failures(runId: number): Array<{ stepId: string; url: string; kind: string; error: string; failedAt: string }> {
    return this.runs.failures(runId);
  }

  latestUnfinishedRun(pipelineName: string): RunRecord | undefined {
    return this.runs.latestUnfinishedRun(pipelineName);
  }

  finishRun(id: number, status: RunStatus, error?: string, expectations?: ExpectationVerdict): void {
    return this.runs.finishRun(id, status, error, expectations);
  }

  reopenRun(id: number, resumeWords?: readonly string[]): void {
    return this.runs.reopenRun(id, resumeWords);
  }

  startStep(runId: number, stepId: string, kind: string): void {
    return this.runs.startStep(runId, stepId, kind);
  }

  finishStep(runId: number, stepId: string, status: StepStatus, error?: string, expectations?: ExpectationVerdict): void {
    return this.runs.finishStep(runId, stepId, status, error, expectations);
  }

  getSteps(runId: number): StepRecord[] {
    return this.runs.getSteps(runId);
  }

  saveStepState(runId: number, stepId: string, state: string): void {
    // Sent after the pages it counts as done, so it is committed after them.
    if (this.writer) return this.writer.post({ op: "saveStepState", args: [runId, stepId, state] }, this.stamp());
    this.runs.saveStepState(runId, stepId, state);
  }

  /**
   * Keeps what the fetch gate answered a run for a request (fetched-pages.ts); committed in the
   * order sent, on the writer thread once there is one.
   */
  keepFetched(runId: number, key: string, answer: FetchedAnswer): void {
    if (this.writer) return this.writer.post({ op: "keepFetched", args: [runId, key, answer] }, this.stamp());
    this.db.transaction(() => keepFetched(this.db, runId, key, answer)).immediate();
  }

  stepState(runId: number, stepId: string): string | undefined {
    return this.runs.stepState(runId, stepId);
  }

  saveStepResult(runId: number, stepId: string, result: string): void {
    return this.runs.saveStepResult(runId, stepId, result);
  }

  stepResult(runId: number, stepId: string): string | undefined {
    return this.runs.stepResult(runId, stepId);
  }

  previousStepRun(pipelineName: string, stepId: string, beforeRunId: number): { runId: number; planJson: string } | undefined {
    return this.runs.previousStepRun(pipelineName, stepId, beforeRunId);
  }

  saveFailure(record: { runId: number; stepId: string; url: string; error: string; kind: string }): void {
    return this.runs.saveFailure(record);
  }

  saveRetry(runId: number, stepId: string): void {
    return this.runs.saveRetry(runId, stepId);
  }

  recordCredits(entry: { runId: number; stepId: string; credits: number; reason: string; url?: string }): void {
    return this.runs.recordCredits(entry);
  }

  /** The bytes of a screenshot or PDF a stored document refers to (`blob:sha256:…;type=…`). */
  asset(ref: string): { mediaType: string; bytes: Buffer } | undefined {
    return this.pages.asset(ref);
  }

  pageChanges(runId: number): Array<{ stepId: string; url: string; change: ChangeTrackingResult }> {
    return this.pages.pageChanges(runId);
  }

  storedUrls(runId: number, stepId: string): Set<string> {
    return this.pages.storedUrls(runId, stepId);
  }

  documents(runId: number, stepId?: string, only?: ReadonlySet<string>): Iterable<StoredDocument> {
    return this.pages.documents(runId, stepId, only);
  }

  saveDocument(record: StoredDocument, snapshot?: SnapshotWrite, cache?: CacheWrite): Promise<void> | undefined {
    if (!this.writer && ++this.savedHere > this.writerAfter) this.writer = new Writer(this.db.name, this.busyTimeoutMs);
    if (this.writer) {
      const committed = this.writer.send({ op: "saveDocument", args: [record, snapshot, cache && packCache(cache, record.document)] }, this.stamp());
      if (snapshot) this.pendingSnapshots.track(snapshotKey(snapshot.url, snapshot.tag), committed);
      return committed;
    }
    this.saveTransaction(record, snapshot, cache);
    return undefined;
  }

  /** Calls sent to the writer thread whose commit has not been reported yet (0 without one). */
  get pendingWrites(): number {
    return this.writer?.pending ?? 0;
  }

  /** Waits until the writer thread has committed every call sent to it (see waitForWriter below). */
  private drainWriter(): void {
    this.writer?.drain();
  }

  /**
   * The latest snapshot of a URL and tag. It waits for the writer thread only when a snapshot of
   * that URL and tag is on its way there: a change-tracking crawl reads one per page, and waiting
   * for every page sent before it held the crawl up (a fifth of its time).
   */
  latestSnapshot(url: string, tag: string | null): SnapshotRecord | undefined {
    if (this.pendingSnapshots.has(snapshotKey(url, tag))) this.drainWriter();
    return this.changes.latestSnapshot(url, tag);
  }

  snapshots(url: string, tag: string | null): SnapshotRecord[] {
    return this.changes.snapshots(url, tag);
  }

  /** Every URL with a history on a tag's branch (null: the default one). */
  snapshotUrls(tag: string | null): string[] {
    return this.changes.snapshotUrls(tag);
  }

  snapshotMarkdown(snapshot: SnapshotRecord): string {
    return this.changes.snapshotMarkdown(snapshot);
  }

  cacheGet(url: string, optionsKey: string, maxAgeMs: number): { document: Document; cachedAt: string } | undefined {
    return readCacheEntry(this.db, url, optionsKey, maxAgeMs, this.now().getTime());
  }

  cacheHolds(optionsKey: string): boolean {
    return cacheHoldsKey(this.db, optionsKey);
  }

  cachePut(url: string, optionsKey: string, document: Document): void {
    this.db.transaction(() => writeCacheEntry(this.db, { url, optionsKey, document, fetchedAt: this.stamp() })).immediate();
  }

  /** serve's teams, keys, jobs and usage on this database (one serve at a time holds it: claimServer). */
  serveTables(): ServeTables {
    return new SqliteServeTables(this.db, this.now);
  }
  monitorTables(now: () => Date = this.now): MonitorTables {
    return new SqliteMonitorTables(this.db, now);
  }
  jobWebhookTables(): JobWebhookTables {
    return new SqliteJobWebhookTables(this.db, this.now);
  }
  uiReads(): UiReads {
    return new SqliteUiReads(this.db);
  }
  /** The raw pages runs kept for `run --from-run`; answers are kept through the writer once there is one. */
  fetchedPages(): FetchedPages {
    return new FetchedPageTable(this.db, (runId, key, answer) => this.keepFetched(runId, key, answer));
  }

  close(): void {
    const writer = this.writer;
    this.writer = undefined;
    try {
      writer?.close();
    } finally {
      if (this.db.open) this.db.close();
    }
  }
}

/**
 * Every method of the store but those that go to the writer thread first waits for the writer's
 * queue, so reads and other writes see every page sent before them: safe by default for methods
 * added later. Exceptions that need not wait: the page cache (a page written a moment ago and not
 * yet visible is only a miss), a snapshot's markdown (the blob a committed row refers to is
 * committed itself), keeping a fetch answer (sent to the thread as pages are), and the latest
 * snapshot of a URL (it waits only when one of that URL is on its way).
 */
function waitForWriter(proto: Record<string, unknown>, except: ReadonlySet<string>): void {
  for (const name of Object.getOwnPropertyNames(proto)) {
    const method = Object.getOwnPropertyDescriptor(proto, name)?.value as unknown;
    if (except.has(name) || typeof method !== "function") continue;
    proto[name] = function (this: { drainWriter(): void }, ...args: unknown[]) {
      this.drainWriter();
      return (method as (...a: unknown[]) => unknown).apply(this, args);
    };
  }
}
waitForWriter(
  SqliteStore.prototype as unknown as Record<string, unknown>,
  new Set(["constructor", "saveDocument", "saveStepState", "keepFetched", "cacheGet", "latestSnapshot", "snapshotMarkdown", "close", "drainWriter", "stamp"]),
);
