// Runs, steps, failures, credits and warnings on PostgreSQL: what ../sqlite/run-records.ts keeps of them, read and written alike.
import type { ExpectationVerdict, NewRun, RunRecord, RunStatus, StepRecord, StepStatus } from "../../core/index.js";
import { currentOwner } from "../owner.js";
import { toRun, toStep } from "../rows.js";
import { MAX_RUN_WARNINGS, type RunWarning } from "../run-warning.js";
import { getText, putBlob } from "./blobs.js";
import { column, row, rows, run, value, type Tx } from "./sql.js";

/** The credits of a run's pages not yet compacted into their step (see JOURNAL_CREDITS in ../rows.ts). */
export const JOURNAL_CREDITS = "(SELECT COALESCE(SUM(d.credits_used), 0)::int FROM documents d WHERE d.run_id = runs.id) AS journal_credits";

export async function createRun(tx: Tx, input: NewRun): Promise<RunRecord> {
  const plan = await putBlob(tx, Buffer.from(input.planJson));
  const owner = currentOwner();
  const id = await value<number>(
    tx,
    `INSERT INTO runs (pipeline_name, pipeline_file, pipeline_hash, plan_json, plan_blob, engine, status, started_at, owner_host, owner_pid, owner_started, resume_words)
     VALUES ($1, $2, $3, '', $4, $5, 'running', $6, $7, $8, $9, $10) RETURNING id`,
    [input.pipelineName, input.pipelineFile, input.pipelineHash, plan, input.engine, tx.now, owner.host, owner.pid, owner.started, input.resumeWords ? JSON.stringify(input.resumeWords) : null],
  );
  return (await getRun(tx, id!))!;
}

export async function runPlan(tx: Tx, id: number): Promise<string | undefined> {
  const found = await row(tx, "SELECT plan_json, plan_blob FROM runs WHERE id = $1", [id]);
  if (!found) return undefined;
  return found.plan_blob ? getText(tx, found.plan_blob as string) : (found.plan_json as string);
}

export async function getRun(tx: Tx, id: number): Promise<RunRecord | undefined> {
  const found = await row(tx, `SELECT *, ${JOURNAL_CREDITS} FROM runs WHERE id = $1`, [id]);
  return found ? toRun(found) : undefined;
}

export async function listRuns(tx: Tx, options: { pipelineName?: string; limit?: number } = {}): Promise<RunRecord[]> {
  const named = options.pipelineName !== undefined;
  const found = await rows(tx, `SELECT *, ${JOURNAL_CREDITS} FROM runs ${named ? "WHERE pipeline_name = $2" : ""} ORDER BY id DESC LIMIT $1`, [
    options.limit === undefined || options.limit < 0 ? null : options.limit,
    ...(named ? [options.pipelineName] : []),
  ]);
  return found.map(toRun);
}

export async function latestUnfinishedRun(tx: Tx, pipelineName: string): Promise<RunRecord | undefined> {
  const found = await row(tx, `SELECT *, ${JOURNAL_CREDITS} FROM runs WHERE pipeline_name = $1 ORDER BY id DESC LIMIT 1`, [pipelineName]);
  return found && found.status !== "succeeded" ? toRun(found) : undefined;
}

export async function finishRun(tx: Tx, id: number, status: RunStatus, error?: string, expectations?: ExpectationVerdict): Promise<void> {
  await run(tx, "UPDATE runs SET status = $1, finished_at = $2, error = $3, expectations = $4 WHERE id = $5", [status, tx.now, error ?? null, expectations ? JSON.stringify(expectations) : null, id]);
}

export async function reopenRun(tx: Tx, id: number, resumeWords?: readonly string[]): Promise<void> {
  const owner = currentOwner();
  await run(tx, "UPDATE runs SET status = 'running', finished_at = NULL, error = NULL, owner_host = $1, owner_pid = $2, owner_started = $3 WHERE id = $4", [owner.host, owner.pid, owner.started, id]);
  if (resumeWords) await run(tx, "UPDATE runs SET resume_words = $1 WHERE id = $2", [JSON.stringify(resumeWords), id]);
}

export async function startStep(tx: Tx, runId: number, stepId: string, kind: string): Promise<void> {
  await run(
    tx,
    `INSERT INTO step_runs (run_id, step_id, kind, status, started_at) VALUES ($1, $2, $3, 'running', $4)
     ON CONFLICT (run_id, step_id) DO UPDATE SET kind = excluded.kind, status = 'running', started_at = COALESCE(step_runs.started_at, excluded.started_at), finished_at = NULL, error = NULL, expectations = NULL`,
    [runId, stepId, kind, tx.now],
  );
}

/** Records how a step ended (its pages are compacted by the caller, in the same transaction). */
export async function endStep(tx: Tx, runId: number, stepId: string, status: StepStatus, error?: string, expectations?: ExpectationVerdict): Promise<void> {
  await run(
    tx,
    `INSERT INTO step_runs (run_id, step_id, kind, status, finished_at, error, expectations) VALUES ($1, $2, '', $3, $4, $5, $6)
     ON CONFLICT (run_id, step_id) DO UPDATE SET status = excluded.status, finished_at = excluded.finished_at, error = excluded.error, expectations = excluded.expectations`,
    [runId, stepId, status, tx.now, error ?? null, expectations ? JSON.stringify(expectations) : null],
  );
}

export async function getSteps(tx: Tx, runId: number): Promise<StepRecord[]> {
  const found = await rows(
    tx,
    `SELECT *, (SELECT COALESCE(SUM(d.credits_used), 0)::int FROM documents d WHERE d.run_id = step_runs.run_id AND d.step_id = step_runs.step_id) AS journal_credits,
       (SELECT COUNT(*)::int FROM documents d WHERE d.run_id = step_runs.run_id AND d.step_id = step_runs.step_id) AS journal_documents
     FROM step_runs WHERE run_id = $1 ORDER BY seq`,
    [runId],
  );
  return found.map(toStep);
}

/** A run's steps' ids, in the order they started. */
export async function stepIds(tx: Tx, runId: number): Promise<string[]> {
  return column<string>(tx, "SELECT step_id FROM step_runs WHERE run_id = $1 ORDER BY seq", [runId]);
}

export async function saveStepState(tx: Tx, runId: number, stepId: string, state: string): Promise<void> {
  await run(tx, "UPDATE step_runs SET state = $1 WHERE run_id = $2 AND step_id = $3", [state, runId, stepId]);
}

export async function stepState(tx: Tx, runId: number, stepId: string): Promise<string | undefined> {
  return (await value<string | null>(tx, "SELECT state FROM step_runs WHERE run_id = $1 AND step_id = $2", [runId, stepId])) ?? undefined;
}

export async function saveStepResult(tx: Tx, runId: number, stepId: string, result: string): Promise<void> {
  const hash = await putBlob(tx, Buffer.from(result));
  await run(tx, "UPDATE step_runs SET result = $1 WHERE run_id = $2 AND step_id = $3", [hash, runId, stepId]);
}

export async function stepResult(tx: Tx, runId: number, stepId: string): Promise<string | undefined> {
  const hash = await value<string | null>(tx, "SELECT result FROM step_runs WHERE run_id = $1 AND step_id = $2", [runId, stepId]);
  return hash ? getText(tx, hash) : undefined;
}

export async function failures(tx: Tx, runId: number): Promise<Array<{ stepId: string; url: string; kind: string; error: string; failedAt: string }>> {
  const found = await rows(tx, "SELECT step_id, url, kind, error, failed_at FROM failures WHERE run_id = $1 ORDER BY id", [runId]);
  return found.map((r) => ({ stepId: r.step_id as string, url: r.url as string, kind: r.kind as string, error: r.error as string, failedAt: r.failed_at as string }));
}

export async function saveFailure(tx: Tx, record: { runId: number; stepId: string; url: string; error: string; kind: string }): Promise<void> {
  await run(tx, "INSERT INTO failures (run_id, step_id, url, kind, error, failed_at) VALUES ($1, $2, $3, $4, $5, $6)", [record.runId, record.stepId, record.url, record.kind, record.error, tx.now]);
  await run(tx, "UPDATE step_runs SET failures = failures + 1 WHERE run_id = $1 AND step_id = $2", [record.runId, record.stepId]);
}

export async function saveRetry(tx: Tx, runId: number, stepId: string): Promise<void> {
  await run(tx, "UPDATE step_runs SET retries = retries + 1 WHERE run_id = $1 AND step_id = $2", [runId, stepId]);
}

export async function recordCredits(tx: Tx, entry: { runId: number; stepId: string; credits: number; reason: string; url?: string }): Promise<void> {
  if (entry.credits === 0) return;
  await run(tx, "INSERT INTO credit_ledger (run_id, step_id, url, credits, reason, at) VALUES ($1, $2, $3, $4, $5, $6)", [entry.runId, entry.stepId, entry.url ?? null, entry.credits, entry.reason, tx.now]);
  await run(tx, "UPDATE runs SET credits_used = credits_used + $1 WHERE id = $2", [entry.credits, entry.runId]);
  await run(tx, "UPDATE step_runs SET credits_used = credits_used + $1 WHERE run_id = $2 AND step_id = $3", [entry.credits, entry.runId, entry.stepId]);
}

export async function previousStepRun(tx: Tx, pipelineName: string, stepId: string, beforeRunId: number): Promise<{ runId: number; planJson: string } | undefined> {
  const id = await value<number>(
    tx,
    `SELECT r.id FROM runs r JOIN step_runs s ON s.run_id = r.id
     WHERE r.pipeline_name = $1 AND s.step_id = $2 AND s.status = 'succeeded' AND r.id < $3 ORDER BY r.id DESC LIMIT 1`,
    [pipelineName, stepId, beforeRunId],
  );
  return id === undefined ? undefined : { runId: id, planJson: (await runPlan(tx, id)) ?? "{}" };
}

/** Keeps warnings of a run (at most MAX_RUN_WARNINGS; the rest are counted), as ../sqlite/warnings.ts does. */
export async function addWarnings(tx: Tx, runId: number, warnings: readonly RunWarning[]): Promise<void> {
  const have = (await value<number>(tx, "SELECT COUNT(*)::int FROM run_warnings WHERE run_id = $1", [runId])) ?? 0;
  const insert = (w: { stepId: string; url: string | null; message: string; at: string }) =>
    run(tx, "INSERT INTO run_warnings (run_id, step_id, url, message, at) VALUES ($1, $2, $3, $4, $5)", [runId, w.stepId, w.url, w.message, w.at]);
  const room = Math.max(0, MAX_RUN_WARNINGS - have);
  for (const w of warnings.slice(0, room)) await insert(w);
  const left = warnings.length - room;
  if (left > 0 && room > 0) {
    const last = warnings[warnings.length - 1]!;
    await insert({ stepId: last.stepId, url: null, message: `${left} more warning(s) not kept`, at: last.at });
  }
}

export async function runWarnings(tx: Tx, runId: number): Promise<RunWarning[]> {
  const found = await rows(tx, "SELECT step_id, url, message, at FROM run_warnings WHERE run_id = $1 ORDER BY id", [runId]);
  return found.map((r) => ({ stepId: r.step_id as string, url: (r.url as string | null) ?? null, message: r.message as string, at: r.at as string }));
}
