import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import type { CacheWrite, ChangeTrackingResult, Document, ExpectationVerdict, NewRun, RunRecord, RunStatus, SnapshotRecord, SnapshotWrite, StepRecord, StepStatus, Store, StoredDocument } from "../core/index.js";
import { changeRecord, mostCommon, readChange, readLatestSnapshot, snapshotBranch, snapshotKey, toSnapshot, writeSnapshot } from "./changes.js";
import { parseAssetRef, splitAssets } from "./assets.js";
import { getBlob, hasBlob, putBlob } from "./blobs.js";
import { MIGRATIONS } from "./migrations.js";
import { currentOwner } from "./owner.js";
import { addWarnings, runWarnings, type RunWarning } from "./warnings.js";
import { JOURNAL_CREDITS, toRun, toStep, type Row } from "./rows.js";
import { cacheStatements } from "./statements.js";
import { packCache } from "./cache-entry.js";
import { cacheHoldsKey, readCacheEntry, writeCacheEntry } from "./page-cache.js";
import { PendingKeys, Writer } from "./writer.js";
import { compactFetched, keepFetched, type FetchedAnswer } from "./fetched-pages.js";

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

/** One page in a step's manifest. */
interface ManifestEntry {
  url: string;
  hash: string;
  statusCode: number;
  credits: number;
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
export class SqliteStore implements Store {
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
    this.saveTransaction = this.db.transaction(this.insertDocument).immediate;
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

  private stamp(): string {
    return this.now().toISOString();
  }

  createRun(run: NewRun): RunRecord {
    const id = this.db.transaction(() => {
      const plan = putBlob(this.db, Buffer.from(run.planJson));
      const owner = currentOwner();
      const info = this.db
        .prepare("INSERT INTO runs (pipeline_name, pipeline_file, pipeline_hash, plan_json, plan_blob, engine, status, started_at, owner_host, owner_pid, owner_started, resume_words) VALUES (?, ?, ?, '', ?, ?, 'running', ?, ?, ?, ?, ?)")
        .run(run.pipelineName, run.pipelineFile, run.pipelineHash, plan, run.engine, this.stamp(), owner.host, owner.pid, owner.started, run.resumeWords ? JSON.stringify(run.resumeWords) : null);
      return Number(info.lastInsertRowid);
    }).immediate();
    return this.getRun(id)!;
  }

  /** The normalized pipeline a run was started with, as JSON. */
  runPlan(id: number): string | undefined {
    const row = this.db.prepare("SELECT plan_json, plan_blob FROM runs WHERE id = ?").get(id) as Row | undefined;
    if (!row) return undefined;
    return row.plan_blob ? getBlob(this.db, row.plan_blob as string).toString("utf8") : (row.plan_json as string);
  }

  getRun(id: number): RunRecord | undefined {
    const row = this.db.prepare(`SELECT *, ${JOURNAL_CREDITS} FROM runs WHERE id = ?`).get(id) as Row | undefined;
    return row ? toRun(row) : undefined;
  }

  listRuns(options: { pipelineName?: string; limit?: number } = {}): RunRecord[] {
    const where = options.pipelineName === undefined ? "" : "WHERE pipeline_name = ?";
    const params: unknown[] = options.pipelineName === undefined ? [] : [options.pipelineName];
    const rows = this.db.prepare(`SELECT *, ${JOURNAL_CREDITS} FROM runs ${where} ORDER BY id DESC LIMIT ?`).all(...params, options.limit ?? -1) as Row[];
    return rows.map(toRun);
  }

  /** Keeps warnings of a run (at most MAX_RUN_WARNINGS; the rest are counted). */
  addWarnings(runId: number, warnings: readonly RunWarning[]): void {
    if (warnings.length > 0) addWarnings(this.db, runId, warnings);
  }

  warnings(runId: number): RunWarning[] {
    return runWarnings(this.db, runId);
  }

  failures(runId: number): Array<{ stepId: string; url: string; kind: string; error: string; failedAt: string }> {
    const rows = this.db.prepare("SELECT step_id, url, kind, error, failed_at FROM failures WHERE run_id = ? ORDER BY id").all(runId) as Row[];
    return rows.map((r) => ({ stepId: r.step_id as string, url: r.url as string, kind: r.kind as string, error: r.error as string, failedAt: r.failed_at as string }));
  }

  latestUnfinishedRun(pipelineName: string): RunRecord | undefined {
    const row = this.db.prepare(`SELECT *, ${JOURNAL_CREDITS} FROM runs WHERE pipeline_name = ? ORDER BY id DESC LIMIT 1`).get(pipelineName) as Row | undefined;
    return row && row["status"] !== "succeeded" ? toRun(row) : undefined;
  }

  finishRun(id: number, status: RunStatus, error?: string, expectations?: ExpectationVerdict): void {
    this.db.transaction(() => {
      this.db.prepare("UPDATE runs SET status = ?, finished_at = ?, error = ?, expectations = ? WHERE id = ?").run(status, this.stamp(), error ?? null, expectations ? JSON.stringify(expectations) : null, id);
      compactFetched(this.db, id);
    }).immediate();
  }

  /**
   * Keeps what the fetch gate answered a run for a request (src/store/fetched-pages.ts); committed
   * in the order sent, on the writer thread once there is one.
   */
  keepFetched(runId: number, key: string, answer: FetchedAnswer): void {
    if (this.writer) return this.writer.post({ op: "keepFetched", args: [runId, key, answer] }, this.stamp());
    this.db.transaction(() => keepFetched(this.db, runId, key, answer)).immediate();
  }

  reopenRun(id: number, resumeWords?: readonly string[]): void {
    const owner = currentOwner();
    this.db.prepare("UPDATE runs SET status = 'running', finished_at = NULL, error = NULL, owner_host = ?, owner_pid = ?, owner_started = ? WHERE id = ?").run(owner.host, owner.pid, owner.started, id);
    if (resumeWords) this.db.prepare("UPDATE runs SET resume_words = ? WHERE id = ?").run(JSON.stringify(resumeWords), id);
  }

  startStep(runId: number, stepId: string, kind: string): void {
    this.db.prepare(
      `INSERT INTO step_runs (run_id, step_id, kind, status, started_at) VALUES (?, ?, ?, 'running', ?)
       ON CONFLICT (run_id, step_id) DO UPDATE SET kind = excluded.kind, status = 'running', started_at = COALESCE(step_runs.started_at, excluded.started_at), finished_at = NULL, error = NULL, expectations = NULL`,
    ).run(runId, stepId, kind, this.stamp());
  }

  finishStep(runId: number, stepId: string, status: StepStatus, error?: string, expectations?: ExpectationVerdict): void {
    this.db.transaction(() => {
      this.db.prepare(
        `INSERT INTO step_runs (run_id, step_id, kind, status, finished_at, error, expectations) VALUES (?, ?, '', ?, ?, ?, ?)
         ON CONFLICT (run_id, step_id) DO UPDATE SET status = excluded.status, finished_at = excluded.finished_at, error = excluded.error, expectations = excluded.expectations`,
      ).run(runId, stepId, status, this.stamp(), error ?? null, expectations ? JSON.stringify(expectations) : null);
      this.compactStep(runId, stepId);
    }).immediate();
  }

  getSteps(runId: number): StepRecord[] {
    const rows = this.db.prepare(
      `SELECT *, (SELECT COALESCE(SUM(d.credits_used), 0) FROM documents d WHERE d.run_id = step_runs.run_id AND d.step_id = step_runs.step_id) AS journal_credits,
         (SELECT COUNT(*) FROM documents d WHERE d.run_id = step_runs.run_id AND d.step_id = step_runs.step_id) AS journal_documents
       FROM step_runs WHERE run_id = ? ORDER BY rowid`,
    ).all(runId) as Row[];
    return rows.map(toStep);
  }

  saveStepState(runId: number, stepId: string, state: string): void {
    // Sent after the pages it counts as done, so it is committed after them.
    if (this.writer) return this.writer.post({ op: "saveStepState", args: [runId, stepId, state] }, this.stamp());
    this.db.prepare("UPDATE step_runs SET state = ? WHERE run_id = ? AND step_id = ?").run(state, runId, stepId);
  }

  stepState(runId: number, stepId: string): string | undefined {
    return (this.db.prepare("SELECT state FROM step_runs WHERE run_id = ? AND step_id = ?").pluck().get(runId, stepId) as string | null | undefined) ?? undefined;
  }

  saveStepResult(runId: number, stepId: string, result: string): void {
    this.db.transaction(() => {
      const hash = putBlob(this.db, Buffer.from(result));
      this.db.prepare("UPDATE step_runs SET result = ? WHERE run_id = ? AND step_id = ?").run(hash, runId, stepId);
    })();
  }

  stepResult(runId: number, stepId: string): string | undefined {
    const hash = this.db.prepare("SELECT result FROM step_runs WHERE run_id = ? AND step_id = ?").pluck().get(runId, stepId) as string | null | undefined;
    return hash ? getBlob(this.db, hash).toString("utf8") : undefined;
  }

  /** The bytes of a screenshot or PDF a stored document refers to (`blob:sha256:…;type=…`). */
  asset(ref: string): { mediaType: string; bytes: Buffer } | undefined {
    const parsed = parseAssetRef(ref);
    if (!parsed) return undefined;
    return hasBlob(this.db, parsed.hash) ? { mediaType: parsed.mediaType, bytes: getBlob(this.db, parsed.hash) } : undefined;
  }

  private readonly insertDocument = (record: StoredDocument, snapshot?: SnapshotWrite, cache?: CacheWrite): void => {
    const { changeTracking, ...whole } = record.document;
    const content = splitAssets(whole, (bytes) => putBlob(this.db, bytes, "none"));
    const json = JSON.stringify(content);
    const hash = putBlob(this.db, Buffer.from(json));
    if (cache) writeCacheEntry(this.db, { url: record.url, optionsKey: cache.optionsKey, document: cache.document, fetchedAt: this.stamp() }, { document: record.document, json, hash });
    if (changeTracking) {
      const diffHash = changeTracking.diff ? putBlob(this.db, Buffer.from(JSON.stringify(changeTracking.diff))) : undefined;
      this.db.prepare("INSERT INTO page_changes (run_id, step_id, url, change) VALUES (?, ?, ?, ?) ON CONFLICT (run_id, step_id, url) DO UPDATE SET change = excluded.change").run(record.runId, record.stepId, record.url, changeRecord(changeTracking, diffHash));
    }
    if (snapshot) writeSnapshot(this.db, snapshot, record.runId, this.stamp());
    const meta = record.document.metadata;
    this.db.prepare(
      `INSERT INTO documents (run_id, step_id, url, final_url, status_code, fetched_at, credits_used, blob_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (run_id, step_id, url) DO UPDATE SET final_url = excluded.final_url, status_code = excluded.status_code,
         fetched_at = excluded.fetched_at, credits_used = excluded.credits_used, blob_hash = excluded.blob_hash`,
    ).run(record.runId, record.stepId, record.url, meta.url ?? null, meta.statusCode ?? null, record.fetchedAt, record.creditsUsed, hash);
    // The page's credits and its count stay on its row: reads add the rows up, and compaction moves them to the step and the run.
  };

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
    return readLatestSnapshot(this.db, url, tag);
  }

  snapshots(url: string, tag: string | null): SnapshotRecord[] {
    return (this.db.prepare("SELECT * FROM snapshots WHERE url = ? AND branch = ? ORDER BY version").all(url, snapshotBranch(tag)) as Row[]).map(toSnapshot);
  }

  /** Every URL with a history on a tag's branch (null: the default one). */
  snapshotUrls(tag: string | null): string[] {
    return this.db.prepare("SELECT DISTINCT url FROM snapshots WHERE branch = ?").pluck().all(snapshotBranch(tag)) as string[];
  }

  snapshotMarkdown(snapshot: SnapshotRecord): string {
    return getBlob(this.db, snapshot.blobHash).toString("utf8");
  }

  previousStepRun(pipelineName: string, stepId: string, beforeRunId: number): { runId: number; planJson: string } | undefined {
    const row = this.db.prepare(
        `SELECT r.id FROM runs r JOIN step_runs s ON s.run_id = r.id
         WHERE r.pipeline_name = ? AND s.step_id = ? AND s.status = 'succeeded' AND r.id < ? ORDER BY r.id DESC LIMIT 1`,
    ).get(pipelineName, stepId, beforeRunId) as Row | undefined;
    return row ? { runId: row.id as number, planJson: this.runPlan(row.id as number) ?? "{}" } : undefined;
  }

  saveFailure(record: { runId: number; stepId: string; url: string; error: string; kind: string }): void {
    this.db.transaction(() => {
      this.db.prepare("INSERT INTO failures (run_id, step_id, url, kind, error, failed_at) VALUES (?, ?, ?, ?, ?, ?)").run(record.runId, record.stepId, record.url, record.kind, record.error, this.stamp());
      this.db.prepare("UPDATE step_runs SET failures = failures + 1 WHERE run_id = ? AND step_id = ?").run(record.runId, record.stepId);
    }).immediate();
  }

  saveRetry(runId: number, stepId: string): void {
    this.db.prepare("UPDATE step_runs SET retries = retries + 1 WHERE run_id = ? AND step_id = ?").run(runId, stepId);
  }

  /** The pages of a step: its manifest (finished work) overlaid with journal rows (work since). */
  private entries(runId: number, stepId: string): Map<string, ManifestEntry & { fetchedAt: string }> {
    const out = new Map<string, ManifestEntry & { fetchedAt: string }>();
    const step = this.db.prepare("SELECT manifest, finished_at, started_at FROM step_runs WHERE run_id = ? AND step_id = ?").get(runId, stepId) as Row | undefined;
    if (step?.manifest) {
      const at = (step.finished_at ?? step.started_at ?? "") as string;
      for (const entry of JSON.parse(getBlob(this.db, step.manifest as string).toString("utf8")) as ManifestEntry[]) out.set(entry.url, { ...entry, fetchedAt: at });
    }
    const rows = this.db.prepare("SELECT url, blob_hash, status_code, credits_used, fetched_at FROM documents WHERE run_id = ? AND step_id = ? ORDER BY id").all(runId, stepId) as Row[];
    for (const row of rows) {
      out.set(row.url as string, { url: row.url as string, hash: row.blob_hash as string, statusCode: (row.status_code as number | null) ?? 0, credits: row.credits_used as number, fetchedAt: row.fetched_at as string });
    }
    return out;
  }

  /**
   * Folds a step's journal rows into its manifest and its credits into one ledger row per reason
   * (pages: the step's total less the other reasons), in one transaction. Repeating it is harmless.
   */
  private compactStep(runId: number, stepId: string): void {
    const entries = [...this.entries(runId, stepId).values()].sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
    if (entries.length > 0) {
      const manifest = entries.map(({ url, hash, statusCode, credits }) => ({ url, hash, statusCode, credits }));
      const hash = putBlob(this.db, Buffer.from(JSON.stringify(manifest)));
      this.db.prepare("UPDATE step_runs SET manifest = ?, documents = ? WHERE run_id = ? AND step_id = ?").run(hash, entries.length, runId, stepId);
    }
    const journal = this.db.prepare("SELECT COALESCE(SUM(credits_used), 0) FROM documents WHERE run_id = ? AND step_id = ?").pluck().get(runId, stepId) as number;
    if (journal !== 0) {
      this.db.prepare("UPDATE step_runs SET credits_used = credits_used + ? WHERE run_id = ? AND step_id = ?").run(journal, runId, stepId);
      this.db.prepare("UPDATE runs SET credits_used = credits_used + ? WHERE id = ?").run(journal, runId);
    }
    this.db.prepare("DELETE FROM documents WHERE run_id = ? AND step_id = ?").run(runId, stepId);
    this.compactChanges(runId, stepId, entries.map((e) => e.url));
    // Pages' credits are counted on the step only, so its "page" row is what the other reasons leave of the step's total.
    const sums = this.db.prepare("SELECT reason, SUM(credits) AS credits FROM credit_ledger WHERE run_id = ? AND step_id = ? AND reason <> 'page' GROUP BY reason").all(runId, stepId) as Row[];
    const total = this.db.prepare("SELECT credits_used FROM step_runs WHERE run_id = ? AND step_id = ?").pluck().get(runId, stepId) as number | undefined;
    const pages = (total ?? 0) - sums.reduce((sum, row) => sum + (row.credits as number), 0);
    if (pages !== 0) sums.push({ reason: "page", credits: pages });
    this.db.prepare("DELETE FROM credit_ledger WHERE run_id = ? AND step_id = ?").run(runId, stepId);
    const insert = this.db.prepare("INSERT INTO credit_ledger (run_id, step_id, url, credits, reason, at) VALUES (?, ?, NULL, ?, ?, ?)");
    for (const sum of sums) insert.run(runId, stepId, sum.credits, sum.reason, this.stamp());
  }

  /** Keeps the most common change result once, on the step, and a row only for pages that differ from it. */
  private compactChanges(runId: number, stepId: string, urls: string[]): void {
    const { base, rows } = this.changesOf(runId, stepId);
    if (base === undefined && rows.size === 0) return;
    const effective = urls.flatMap((url) => {
      const change = rows.get(url) ?? base;
      return change === undefined ? [] : [[url, change] as const];
    });
    const common = mostCommon(effective.map(([, change]) => change));
    this.db.prepare("DELETE FROM page_changes WHERE run_id = ? AND step_id = ?").run(runId, stepId);
    const insert = this.db.prepare("INSERT INTO page_changes (run_id, step_id, url, change) VALUES (?, ?, ?, ?)");
    for (const [url, change] of effective) if (change !== common) insert.run(runId, stepId, url, change);
    this.db.prepare("UPDATE step_runs SET change_base = ? WHERE run_id = ? AND step_id = ?").run(common ?? null, runId, stepId);
  }

  private changesOf(runId: number, stepId: string): { base: string | undefined; rows: Map<string, string> } {
    const base = (this.db.prepare("SELECT change_base FROM step_runs WHERE run_id = ? AND step_id = ?").pluck().get(runId, stepId) as string | null | undefined) ?? undefined;
    const rows = this.db.prepare("SELECT url, change FROM page_changes WHERE run_id = ? AND step_id = ?").all(runId, stepId) as Row[];
    return { base, rows: new Map(rows.map((r) => [r.url as string, r.change as string])) };
  }

  private changeTrackingOf(change: string | undefined): ChangeTrackingResult | undefined {
    return change === undefined ? undefined : readChange(change, (hash) => getBlob(this.db, hash).toString("utf8"));
  }

  pageChanges(runId: number): Array<{ stepId: string; url: string; change: ChangeTrackingResult }> {
    const out: Array<{ stepId: string; url: string; change: ChangeTrackingResult }> = [];
    for (const stepId of this.db.prepare("SELECT step_id FROM step_runs WHERE run_id = ? ORDER BY rowid").pluck().all(runId) as string[]) {
      const { base, rows } = this.changesOf(runId, stepId);
      if (base === undefined && rows.size === 0) continue;
      for (const url of this.entries(runId, stepId).keys()) {
        const change = this.changeTrackingOf(rows.get(url) ?? base);
        if (change) out.push({ stepId, url, change });
      }
    }
    return out;
  }

  storedUrls(runId: number, stepId: string): Set<string> {
    return new Set(this.entries(runId, stepId).keys());
  }

  *documents(runId: number, stepId?: string, only?: ReadonlySet<string>): Iterable<StoredDocument> {
    const steps = stepId === undefined ? (this.db.prepare("SELECT step_id FROM step_runs WHERE run_id = ? ORDER BY rowid").pluck().all(runId) as string[]) : [stepId];
    for (const step of steps) {
      const changes = this.changesOf(runId, step);
      for (const entry of this.entries(runId, step).values()) {
        if (only && !only.has(entry.url)) continue;
        const document = JSON.parse(getBlob(this.db, entry.hash).toString("utf8")) as Document;
        const changeTracking = this.changeTrackingOf(changes.rows.get(entry.url) ?? changes.base);
        if (changeTracking) document.changeTracking = changeTracking;
        yield { runId, stepId: step, url: entry.url, fetchedAt: entry.fetchedAt, creditsUsed: entry.credits, document };
      }
    }
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

  recordCredits(entry: { runId: number; stepId: string; credits: number; reason: string; url?: string }): void {
    this.db.transaction(() => this.addCredits(entry.runId, entry.stepId, entry.credits, entry.reason, entry.url)).immediate();
  }

  private addCredits(runId: number, stepId: string, credits: number, reason: string, url?: string): void {
    if (credits === 0) return;
    this.db.prepare("INSERT INTO credit_ledger (run_id, step_id, url, credits, reason, at) VALUES (?, ?, ?, ?, ?, ?)").run(runId, stepId, url ?? null, credits, reason, this.stamp());
    this.db.prepare("UPDATE runs SET credits_used = credits_used + ? WHERE id = ?").run(credits, runId);
    this.db.prepare("UPDATE step_runs SET credits_used = credits_used + ? WHERE run_id = ? AND step_id = ?").run(credits, runId, stepId);
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
