import type { CheckStatus, CheckSummary, Store } from "../../core/index.js";
import { isScrapelineError } from "../../core/index.js";
import type { CheckRecord, Lease, MonitorTables, RunsStore } from "../../store/index.js";
import { checkStatusOf } from "../notify/index.js";
import { runSummary } from "../notify/index.js";
import { checkOutbox, sendLeftOver } from "./outbox.js";
import type { RunFileResult } from "../run/index.js";

/** What a check found in its run: the service's summary, pages counted even without change tracking. */
export function checkSummary(store: Store, runId: number): CheckSummary {
  const summary = runSummary(store, runId, { on: [], rules: { addedOnly: false, keywords: [], ignore: [] } }).summary;
  const stored = store.getSteps(runId).reduce((n, step) => n + step.documents, 0);
  // Pages of steps without change tracking count as seen, neither same nor changed.
  summary.totalPages = Math.max(summary.totalPages, stored + summary.error);
  return summary;
}

export { checkStatusOf } from "../notify/index.js";

export interface CheckRunOptions {
  db: string;
  file: string;
  /** The pipeline's text when it is not read from `file` (serve's monitors). */
  text?: string;
  /** Why the check cannot run: it fails with this at once. */
  refused?: string;
  allowPrivateNetwork?: boolean;
  stop?: AbortSignal;
  abort?: AbortSignal;
  env?: Readonly<Record<string, string | undefined>>;
  /** The store the run keeps its pages in, already open (a watcher's PostgreSQL store); else the run opens `db`. */
  runStore?: RunsStore;
  /** A lease for the check's queued notifications, from now (without one, they are not held). */
  lease?: () => Lease;
}

export interface CheckOutcome {
  status: CheckStatus;
  runId?: number;
  summary?: CheckSummary;
  error?: string;
  notificationsFailed: number;
}

/**
 * Runs a claimed check: the pipeline file through the same runner and store as `scrapeline run`
 * (resuming the check's run when it has one that did not finish), then records the status, the
 * summary and every notification sent or failed. Never throws.
 */
export async function runCheck(tables: MonitorTables, store: Store, check: CheckRecord, options: CheckRunOptions): Promise<CheckOutcome> {
  // A check another watcher took over (this one lost its lease) is the taker's to finish.
  const owner = check.owner ?? undefined;
  const finishCheck: typeof tables.finishCheck = (id, status, result) => tables.finishCheck(id, status, result, owner);
  if (options.refused !== undefined) {
    finishCheck(check.id, "failed", { error: options.refused });
    return { status: "failed", error: options.refused, notificationsFailed: 0 };
  }
  let runId = check.runId ?? undefined;
  const onEvent = (event: { type: string; runId?: number }) => {
    if (event.type === "run-started" && event.runId !== undefined && event.runId !== runId) {
      runId = event.runId;
      tables.setCheckRun(check.id, event.runId);
    }
  };
  const base = { db: options.db, onEvent: onEvent as never, ...(options.allowPrivateNetwork ? { allowPrivateNetwork: true } : {}), ...(options.stop ? { stop: options.stop } : {}), ...(options.abort ? { abort: options.abort } : {}), ...(options.env ? { env: options.env } : {}), ...(options.text !== undefined ? { text: options.text } : {}), ...(options.runStore ? { store: options.runStore } : {}) };
  // A run that finished before its process died (the check was left running): its outcome is
  // recorded without running again. Its notifications are not sent again (at most once).
  const finished = runId !== undefined ? store.getRun(runId) : undefined;
  const outbox = checkOutbox(tables, check.id, options.lease);
  if (finished && ["succeeded", "failed", "budget-exhausted"].includes(finished.status)) {
    // Its notifications left in the outbox (or never queued) are sent now.
    const notificationsFailed = await sendLeftOver(tables, store, check.id, finished.id, outbox, options);
    const summary = checkSummary(store, finished.id);
    const status = checkStatusOf(finished.status, summary);
    finishCheck(check.id, status, { summary, ...(finished.error ? { error: finished.error } : {}) });
    return { status, runId: finished.id, summary, ...(finished.error ? { error: finished.error } : {}), notificationsFailed };
  }
  let result: RunFileResult;
  // The runner, engines and their dependencies load with the first check: an idle watch stays small.
  const { runPipelineFile } = await import("../run/index.js");
  try {
    const resumable = finished !== undefined;
    try {
      result = await runPipelineFile(options.file, { ...base, notifyOutbox: outbox, ...(resumable ? { resume: runId } : {}) });
    } catch (error) {
      // A run that cannot be resumed (the file changed since) is started afresh.
      if (!resumable || !isScrapelineError(error, "invalid-input")) throw error;
      result = await runPipelineFile(options.file, { ...base, notifyOutbox: outbox });
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    finishCheck(check.id, "failed", { error: message });
    return { status: "failed", ...(runId !== undefined ? { runId } : {}), error: message, notificationsFailed: 0 };
  }
  if (!result.ok) {
    const error = result.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.file}:${d.line}:${d.column}: ${d.message}`).join("; ");
    finishCheck(check.id, "failed", { error });
    return { status: "failed", error, notificationsFailed: 0 };
  }
  const summary = checkSummary(store, result.runId);
  const status = checkStatusOf(result.status, summary);
  // Each delivery was recorded as it settled in the outbox.
  const deliveries = result.notify?.deliveries ?? [];
  const error = store.getRun(result.runId)?.error ?? undefined;
  finishCheck(check.id, status, { summary, ...(error ? { error } : {}) });
  return { status, runId: result.runId, summary, ...(error ? { error } : {}), notificationsFailed: deliveries.filter((d) => !d.sent).length };
}
