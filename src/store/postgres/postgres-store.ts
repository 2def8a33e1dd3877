import type { CacheWrite, ChangeTrackingResult, Document, ExpectationVerdict, NewRun, RunRecord, RunStatus, SnapshotRecord, SnapshotWrite, StepRecord, StepStatus, Store, StoredDocument } from "../../core/index.js";
import { parseAssetRef } from "../assets.js";
import type { RunWarning } from "../run-warning.js";
import { SealedSessions, type SealedSessionRow } from "../session-vault.js";
import { PostgresBridge } from "./bridge.js";
import type { OperationName } from "./operations.js";
import type { PageEntry } from "./pages.js";
import type { CrawlFrontierTables } from "../crawl-frontier.js";
import type { JobWebhookTables, MonitorTables, ServeTables, StoreTables, UiReads } from "../tables.js";
import { callingSide } from "./on-thread.js";
import { SERVE_TABLES } from "./serve-tables.js";
import { MONITOR_TABLES } from "./monitor-tables.js";
import { JOB_WEBHOOK_TABLES } from "./job-webhooks.js";
import { UI_READS } from "./ui-reads.js";
import { FRONTIER_TABLES } from "./frontier-tables.js";
import { FETCHED_PAGES } from "./fetched-pages.js";
import type { FetchedAnswer, FetchedPages } from "../fetched-answer.js";

export interface PostgresStoreOptions {
  now?: () => Date;
}

/** A buffer that crossed from the thread (as a Uint8Array) back as a Buffer. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * The store on PostgreSQL (`--db postgres://…`): the same tables and the same reads as the SQLite
 * store, the same Store port. Every call is made synchronously through a thread that owns the
 * connections (bridge.ts); each write is one transaction. The schema is migrated on open, one
 * process at a time.
 */
export class PostgresStore implements Store, StoreTables {
  private readonly bridge: PostgresBridge;
  private readonly now: () => Date;

  constructor(url: string, options: PostgresStoreOptions = {}) {
    this.now = options.now ?? (() => new Date());
    this.bridge = new PostgresBridge(url);
    try {
      this.bridge.call("open", [], this.stamp());
    } catch (error) {
      this.bridge.close();
      throw error;
    }
  }

  private stamp(): string {
    return this.now().toISOString();
  }

  private call<T>(op: OperationName, ...args: unknown[]): T {
    this.reportUnreported();
    return this.bridge.call(op, args, this.stamp()) as T;
  }

  /** The failure of a call sent without waiting that nobody awaits (a kept answer): thrown by the next call. */
  private unreported: Error | undefined;

  private reportUnreported(): void {
    const error = this.unreported;
    if (!error) return;
    this.unreported = undefined;
    throw error;
  }

  createRun(run: NewRun): RunRecord {
    return this.call("createRun", run);
  }
  /** The normalized pipeline a run was started with, as JSON. */
  runPlan(id: number): string | undefined {
    return this.call("runPlan", id);
  }
  getRun(id: number): RunRecord | undefined {
    return this.call("getRun", id);
  }
  listRuns(options: { pipelineName?: string; limit?: number } = {}): RunRecord[] {
    return this.call("listRuns", options);
  }
  failures(runId: number): Array<{ stepId: string; url: string; kind: string; error: string; failedAt: string }> {
    return this.call("failures", runId);
  }
  latestUnfinishedRun(pipelineName: string): RunRecord | undefined {
    return this.call("latestUnfinishedRun", pipelineName);
  }
  finishRun(id: number, status: RunStatus, error?: string, expectations?: ExpectationVerdict): void {
    this.call("finishRun", id, status, error, expectations);
  }
  reopenRun(id: number, resumeWords?: readonly string[]): void {
    this.call("reopenRun", id, resumeWords);
  }
  /** Keeps warnings of a run (at most MAX_RUN_WARNINGS; the rest are counted). */
  addWarnings(runId: number, warnings: readonly RunWarning[]): void {
    if (warnings.length > 0) this.call("addWarnings", runId, warnings);
  }
  warnings(runId: number): RunWarning[] {
    return this.call("warnings", runId);
  }

  startStep(runId: number, stepId: string, kind: string): void {
    this.call("startStep", runId, stepId, kind);
  }
  finishStep(runId: number, stepId: string, status: StepStatus, error?: string, expectations?: ExpectationVerdict): void {
    this.call("finishStep", runId, stepId, status, error, expectations);
  }
  getSteps(runId: number): StepRecord[] {
    return this.call("getSteps", runId);
  }
  saveStepState(runId: number, stepId: string, state: string): void {
    this.call("saveStepState", runId, stepId, state);
  }
  stepState(runId: number, stepId: string): string | undefined {
    return this.call("stepState", runId, stepId);
  }
  saveStepResult(runId: number, stepId: string, result: string): void {
    this.call("saveStepResult", runId, stepId, result);
  }
  stepResult(runId: number, stepId: string): string | undefined {
    return this.call("stepResult", runId, stepId);
  }

  /**
   * Sends the page to the thread and returns at once: the promise settles when it is committed
   * (or rolled back). Every call made after it is answered after it, so reads see it.
   */
  saveDocument(record: StoredDocument, snapshot?: SnapshotWrite, cache?: CacheWrite): Promise<void> {
    return this.bridge.send("saveDocument", [record, snapshot, cache], this.stamp()) as Promise<void>;
  }

  /** Pages sent to the thread whose commit has not been reported yet. */
  get pendingWrites(): number {
    return this.bridge.pending;
  }
  saveFailure(record: { runId: number; stepId: string; url: string; error: string; kind: string }): void {
    this.call("saveFailure", record);
  }
  saveRetry(runId: number, stepId: string): void {
    this.call("saveRetry", runId, stepId);
  }
  storedUrls(runId: number, stepId: string): Set<string> {
    return new Set(this.call<PageEntry[]>("pageList", runId, stepId).map((entry) => entry.url));
  }

  /** A run's (or a step's) pages, each read from the database when it is reached. */
  *documents(runId: number, stepId?: string, only?: ReadonlySet<string>): Iterable<StoredDocument> {
    const steps = stepId === undefined ? this.call<string[]>("stepIds", runId) : [stepId];
    for (const step of steps) {
      for (const entry of this.call<Array<PageEntry & { change?: string }>>("pageList", runId, step, only ? [...only] : undefined)) {
        const document = this.call<Document>("readPage", entry.hash, entry.change);
        yield { runId, stepId: step, url: entry.url, fetchedAt: entry.fetchedAt, creditsUsed: entry.credits, document };
      }
    }
  }

  cacheGet(url: string, optionsKey: string, maxAgeMs: number): { document: Document; cachedAt: string } | undefined {
    return this.call("cacheGet", url, optionsKey, maxAgeMs, this.now().getTime());
  }
  cachePut(url: string, optionsKey: string, document: Document): void {
    this.call("cachePut", url, optionsKey, document);
  }
  cacheHolds(optionsKey: string): boolean {
    return this.call("cacheHolds", optionsKey);
  }
  recordCredits(entry: { runId: number; stepId: string; credits: number; reason: string; url?: string }): void {
    this.call("recordCredits", entry);
  }

  asset(ref: string): { mediaType: string; bytes: Buffer } | undefined {
    const parsed = parseAssetRef(ref);
    if (!parsed) return undefined;
    const bytes = this.call<Uint8Array | undefined>("blob", parsed.hash);
    return bytes ? { mediaType: parsed.mediaType, bytes: asBuffer(bytes) } : undefined;
  }

  pageChanges(runId: number): Array<{ stepId: string; url: string; change: ChangeTrackingResult }> {
    return this.call("pageChanges", runId);
  }
  latestSnapshot(url: string, tag: string | null): SnapshotRecord | undefined {
    return this.call("latestSnapshot", url, tag);
  }
  snapshots(url: string, tag: string | null): SnapshotRecord[] {
    return this.call("snapshots", url, tag);
  }
  /** Every URL with a history on a tag's branch (null: the default one). */
  snapshotUrls(tag: string | null): string[] {
    return this.call("snapshotUrls", tag);
  }
  snapshotMarkdown(snapshot: SnapshotRecord): string {
    return this.call("snapshotMarkdown", snapshot.blobHash);
  }
  previousStepRun(pipelineName: string, stepId: string, beforeRunId: number): { runId: number; planJson: string } | undefined {
    return this.call("previousStepRun", pipelineName, stepId, beforeRunId);
  }

  /** Kept session logins, sealed under `secret` (nothing is kept without one). */
  sessions(secret: string | undefined): SealedSessions {
    return new SealedSessions(
      {
        get: (keyHash) => {
          const found = this.call<SealedSessionRow | undefined>("sessionGet", keyHash);
          return found && { ...found, iv: asBuffer(found.iv), tag: asBuffer(found.tag), ciphertext: asBuffer(found.ciphertext) };
        },
        put: (keyHash, row) => this.call("sessionPut", keyHash, row),
        delete: (keyHash) => this.call("sessionDelete", keyHash),
      },
      secret,
    );
  }

  /**
   * serve's teams, keys, jobs and usage. Several serve replicas may share a PostgreSQL database:
   * claimServer adds this replica's row (it never refuses), and the jobs it creates after name it,
   * so a replica starting later cancels only what replicas gone left running.
   */
  serveTables(): ServeTables {
    const tables = callingSide<ServeTables>("serve", SERVE_TABLES, (op, args) => this.call(op as OperationName, ...args));
    let claimed: string | undefined;
    return {
      ...tables,
      claimServer: (token) => ((claimed = token), tables.claimServer(token)),
      createJob: (job, within) => this.call("serve.createJob", job, within, claimed),
    };
  }
  monitorTables(now: () => Date = this.now): MonitorTables {
    return callingSide<MonitorTables>("monitors", MONITOR_TABLES, (op, args) => this.bridge.call(op as OperationName, args, now().toISOString()));
  }
  jobWebhookTables(): JobWebhookTables {
    return callingSide<JobWebhookTables>("webhooks", JOB_WEBHOOK_TABLES, (op, args) => this.call(op as OperationName, ...args));
  }
  uiReads(): UiReads {
    return callingSide<UiReads>("ui", UI_READS, (op, args) => this.call(op as OperationName, ...args));
  }

  /**
   * The raw pages runs kept for `run --from-run`. A kept answer is sent with the run's pages and
   * saved in their commits; its failure is thrown by the store's next call.
   */
  fetchedPages(): FetchedPages {
    const tables = callingSide<FetchedPages>("fetched", FETCHED_PAGES, (op, args) => this.call(op as OperationName, ...args));
    return {
      ...tables,
      keep: (runId: number, key: string, answer: FetchedAnswer) =>
        void this.bridge.send("fetched.keep", [runId, key, answer], this.stamp()).catch((error: Error) => (this.unreported ??= error)),
      answer: (described) => {
        const answer = tables.answer(described);
        return "error" in answer ? answer : { ...answer, body: asBuffer(answer.body) };
      },
    };
  }

  /** Shared crawls' frontier and per-host politeness, for the processes working on one crawl (serve replicas and workers). */
  crawlFrontierTables(): CrawlFrontierTables {
    const tables = callingSide<CrawlFrontierTables>("frontier", FRONTIER_TABLES, (op, args) => this.call(op as OperationName, ...args));
    // Sent without waiting (see CrawlFrontierTables): a failure is thrown by the store's next call.
    const later = (op: OperationName, args: unknown[]) => void this.bridge.send(op, args, this.stamp()).catch((error: Error) => (this.unreported ??= error));
    return {
      ...tables,
      addPages: (...args) => later("frontier.addPages", args),
      finishPages: (...args) => later("frontier.finishPages", args),
      releaseHost: (...args) => later("frontier.releaseHost", args),
    };
  }

  close(): void {
    this.bridge.close();
  }
}
