// What the PostgreSQL thread can be asked to do: each call is one of these, by name.
import { hasBlob, getBlob } from "./blobs.js";
import { cacheHolds, readCacheEntry, writeCacheEntry } from "./cache.js";
import { compactStep, pageChanges, pageList, readPage, saveDocument } from "./pages.js";
import * as runs from "./runs.js";
import { latestSnapshot, snapshotMarkdown, snapshots, snapshotUrls } from "./snapshots.js";
import { sessionDelete, sessionGet, sessionPut } from "./sessions.js";
import type { Tx } from "./sql.js";
import { named } from "./on-thread.js";
import { SERVE_TABLES } from "./serve-tables.js";
import { MONITOR_TABLES } from "./monitor-tables.js";
import { JOB_WEBHOOK_TABLES } from "./job-webhooks.js";
import { UI_READS } from "./ui-reads.js";
import { compactFetched, FETCHED_PAGES } from "./fetched-pages.js";
import { FRONTIER_TABLES } from "./frontier-tables.js";
import type { ExpectationVerdict, RunStatus, StepStatus } from "../../core/index.js";
import type { Document } from "../../core/index.js";

export const OPERATIONS = {
  createRun: runs.createRun,
  runPlan: runs.runPlan,
  getRun: runs.getRun,
  listRuns: runs.listRuns,
  latestUnfinishedRun: runs.latestUnfinishedRun,
  finishRun: async (tx: Tx, id: number, status: RunStatus, error?: string, expectations?: ExpectationVerdict) => {
    await runs.finishRun(tx, id, status, error, expectations);
    await compactFetched(tx, id);
  },
  reopenRun: runs.reopenRun,
  startStep: runs.startStep,
  finishStep: async (tx: Tx, runId: number, stepId: string, status: StepStatus, error?: string, expectations?: ExpectationVerdict) => {
    await runs.endStep(tx, runId, stepId, status, error, expectations);
    await compactStep(tx, runId, stepId);
  },
  getSteps: runs.getSteps,
  stepIds: runs.stepIds,
  saveStepState: runs.saveStepState,
  stepState: runs.stepState,
  saveStepResult: runs.saveStepResult,
  stepResult: runs.stepResult,
  failures: runs.failures,
  saveFailure: runs.saveFailure,
  saveRetry: runs.saveRetry,
  recordCredits: runs.recordCredits,
  previousStepRun: runs.previousStepRun,
  addWarnings: runs.addWarnings,
  warnings: runs.runWarnings,
  saveDocument,
  pageList,
  readPage,
  pageChanges,
  latestSnapshot,
  snapshots,
  snapshotUrls,
  snapshotMarkdown,
  cacheGet: readCacheEntry,
  cacheHolds,
  cachePut: (tx: Tx, url: string, optionsKey: string, document: Document) => writeCacheEntry(tx, { url, optionsKey, document, fetchedAt: tx.now }),
  sessionGet,
  sessionPut,
  sessionDelete,
  blob: async (tx: Tx, hash: string) => ((await hasBlob(tx, hash)) ? getBlob(tx, hash) : undefined),
  ...named("serve", SERVE_TABLES),
  ...named("monitors", MONITOR_TABLES),
  ...named("webhooks", JOB_WEBHOOK_TABLES),
  ...named("ui", UI_READS),
  ...named("fetched", FETCHED_PAGES),
  ...named("frontier", FRONTIER_TABLES),
};

export type OperationName = keyof typeof OPERATIONS;

/** Calls that only read: made without a transaction of their own. */
export const READS: ReadonlySet<OperationName> = new Set<OperationName>([
  "runPlan", "getRun", "listRuns", "latestUnfinishedRun", "getSteps", "stepIds", "stepState", "stepResult", "failures", "previousStepRun",
  "warnings", "pageList", "readPage", "pageChanges", "latestSnapshot", "snapshots", "snapshotUrls", "snapshotMarkdown", "cacheGet", "cacheHolds", "blob", "sessionGet",
  "fetched.index", "fetched.answer", "fetched.keptAny",
]);
