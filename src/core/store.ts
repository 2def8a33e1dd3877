import type { SnapshotRecord, SnapshotWrite } from "./changes.js";
import type { ChangeTrackingResult, Document } from "./document.js";
import type { ExpectationVerdict } from "./expect.js";

export type RunStatus = "running" | "succeeded" | "failed" | "interrupted" | "budget-exhausted";
export type StepStatus = "pending" | "running" | "succeeded" | "failed" | "skipped" | "cancelled";

export interface RunRecord {
  id: number;
  pipelineName: string;
  pipelineFile: string;
  pipelineHash: string;
  engine: string;
  status: RunStatus;
  startedAt: string;
  finishedAt: string | null;
  creditsUsed: number;
  error: string | null;
  /** The process that ran it last (absent in runs recorded before owners were). */
  owner?: { host: string; pid: number };
  /** The pipeline file and the flags of `run` that finish it with `--resume` (absent when it was not started by `run`). */
  resumeWords?: string[];
  /** The verdict of the pipeline's expectations, when it has any and the run was judged. */
  expectations?: ExpectationVerdict;
  /** The run whose stored pages this run converted (run --from-run), instead of fetching them. */
  fromRun?: number;
}

export interface StepRecord {
  runId: number;
  stepId: string;
  kind: string;
  status: StepStatus;
  startedAt: string | null;
  finishedAt: string | null;
  creditsUsed: number;
  documents: number;
  failures: number;
  error: string | null;
  /** How many times a page of the step was tried again (rate limits and retryable errors). */
  retries: number;
  /** The verdict of the step's expectations, when it has any and it was judged. */
  expectations?: ExpectationVerdict;
}

export interface StoredDocument {
  runId: number;
  stepId: string;
  url: string;
  fetchedAt: string;
  creditsUsed: number;
  document: Document;
}

export interface NewRun {
  pipelineName: string;
  pipelineFile: string;
  /** Hash of the normalized pipeline: a run resumes only with the same pipeline. */
  pipelineHash: string;
  /** The normalized pipeline with values from the environment masked. */
  planJson: string;
  engine: string;
  /** The pipeline file and the flags of `run` that would finish this run (see RunRecord.resumeWords). */
  resumeWords?: readonly string[];
}

/** A page-cache entry written with the page it was fetched for (`cachePut` in the same transaction). */
export interface CacheWrite {
  optionsKey: string;
  /** The page as the engine returned it (the stored document may be shaped from it). */
  document: Document;
}

/** Runs and their steps: status, plans, progress state, failures, retries, results and credits. */
export interface RunRecords {
  createRun(run: NewRun): RunRecord;
  getRun(id: number): RunRecord | undefined;
  /** Runs, newest first. */
  listRuns(options?: { pipelineName?: string; limit?: number }): RunRecord[];
  /** Failed pages of a run. */
  failures(runId: number): Array<{ stepId: string; url: string; kind: string; error: string; failedAt: string }>;
  /** The latest run of a pipeline, when it did not succeed (interrupted, failed, stopped by its budget, or still running): what a bare --resume continues. */
  latestUnfinishedRun(pipelineName: string): RunRecord | undefined;
  finishRun(id: number, status: RunStatus, error?: string, expectations?: ExpectationVerdict): void;
  /** Marks a run as running again, for --resume; `resumeWords` replace the stored ones when given. */
  reopenRun(id: number, resumeWords?: readonly string[]): void;
  startStep(runId: number, stepId: string, kind: string): void;
  finishStep(runId: number, stepId: string, status: StepStatus, error?: string, expectations?: ExpectationVerdict): void;
  getSteps(runId: number): StepRecord[];
  /**
   * Progress a step needs to continue after an interruption (a crawl's frontier), as JSON.
   * Committed after every page saved before it.
   */
  saveStepState(runId: number, stepId: string, state: string): void;
  stepState(runId: number, stepId: string): string | undefined;
  /** A failed page: recorded (no content), so the run report and resume know about it. */
  saveFailure(record: { runId: number; stepId: string; url: string; error: string; kind: string }): void;
  /** Counts one more retry of a page in a step. */
  saveRetry(runId: number, stepId: string): void;
  /** Credits spent without a document (map calls, extract): recorded in the ledger. */
  recordCredits(entry: { runId: number; stepId: string; credits: number; reason: string; url?: string }): void;
  /** The result of a step that has one beyond its pages (an extract step's merged data), as JSON. */
  saveStepResult(runId: number, stepId: string, result: string): void;
  stepResult(runId: number, stepId: string): string | undefined;
  /** The latest earlier run of a pipeline in which a step finished successfully. */
  previousStepRun(pipelineName: string, stepId: string, beforeRunId: number): { runId: number; planJson: string } | undefined;
}

/** The pages a run stored, each with its change-tracking result, and the assets they refer to. */
export interface PageRecords {
  /**
   * Stores a page with the credits it cost (and its change-tracking snapshot, and its page-cache
   * entry), all or nothing. A store that commits on another thread returns a promise settled when
   * the page is committed (pages commit in the order they were saved); a page counts as stored
   * only then. Every other method sees the pages saved before it was called.
   */
  saveDocument(record: StoredDocument, snapshot?: SnapshotWrite, cache?: CacheWrite): void | Promise<void>;
  /** URLs of a step already stored in a run (resume skips them). */
  storedUrls(runId: number, stepId: string): Set<string>;
  /** A run's (or a step's) documents; with `only`, just the pages of those URLs (nothing else is read). */
  documents(runId: number, stepId?: string, only?: ReadonlySet<string>): Iterable<StoredDocument>;
  /** The bytes of a screenshot or PDF a stored document refers to (`blob:sha256:<hex>;type=<media type>`). */
  asset(ref: string): { mediaType: string; bytes: Buffer } | undefined;
  /** The change-tracking result of every tracked page of a run, without loading the pages. */
  pageChanges(runId: number): Array<{ stepId: string; url: string; change: ChangeTrackingResult }>;
}

/** Each page's history for change tracking (snapshots), by URL and tag. */
export interface ChangeRecords {
  /** The newest version of a page's history for a tag (null: the default branch). */
  latestSnapshot(url: string, tag: string | null): SnapshotRecord | undefined;
  /** Every version of a page's history for a tag, oldest first. */
  snapshots(url: string, tag: string | null): SnapshotRecord[];
  /** The markdown a snapshot holds. */
  snapshotMarkdown(snapshot: SnapshotRecord): string;
}

/** Pages kept to answer a later fetch of the same URL with the same options (maxAge). */
export interface PageCache {
  /** A cached page of `url` fetched with the same options no longer ago than `maxAgeMs`. */
  cacheGet(url: string, optionsKey: string, maxAgeMs: number): { document: Document; cachedAt: string } | undefined;
  cachePut(url: string, optionsKey: string, document: Document): void;
  /** Whether the page cache holds any entry made with these options (when none, a step's pages need no lookup). */
  cacheHolds(optionsKey: string): boolean;
}

/**
 * The store port (DESIGN.md §4). Every write that records a page is one transaction, so a killed
 * process leaves each page stored whole or not at all.
 * It is made of the four kinds of record above, which a store may keep in tables of their own.
 */
export interface Store extends RunRecords, PageRecords, ChangeRecords, PageCache {
  close(): void;
}
