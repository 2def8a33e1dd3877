import type Database from "better-sqlite3";
import type { ExpectationVerdict, NewRun, RunRecord, RunStatus, StepRecord, StepStatus } from "../../core/index.js";
import { getBlob, putBlob } from "./blobs.js";
import { currentOwner } from "../owner.js";
import { addWarnings, runWarnings, type RunWarning } from "./warnings.js";
import { JOURNAL_CREDITS, toRun, toStep, type Row } from "../rows.js";
import type { SqliteDocumentRecords } from "./document-records.js";
import { compactFetched } from "./fetched-pages.js";

/** What the SQLite store keeps of runs and their steps: status, plans, warnings, failures, retries, results and the credit ledger. */
export class SqliteRunRecords {
  constructor(
    private readonly db: Database.Database,
    private readonly stamp: () => string,
    private readonly documents: SqliteDocumentRecords,
  ) {}

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
      this.documents.compactStep(runId, stepId);
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

  recordCredits(entry: { runId: number; stepId: string; credits: number; reason: string; url?: string }): void {
    this.db.transaction(() => this.addCredits(entry.runId, entry.stepId, entry.credits, entry.reason, entry.url)).immediate();
  }

  private addCredits(runId: number, stepId: string, credits: number, reason: string, url?: string): void {
    if (credits === 0) return;
    this.db.prepare("INSERT INTO credit_ledger (run_id, step_id, url, credits, reason, at) VALUES (?, ?, ?, ?, ?, ?)").run(runId, stepId, url ?? null, credits, reason, this.stamp());
    this.db.prepare("UPDATE runs SET credits_used = credits_used + ? WHERE id = ?").run(credits, runId);
    this.db.prepare("UPDATE step_runs SET credits_used = credits_used + ? WHERE run_id = ? AND step_id = ?").run(credits, runId, stepId);
  }
}
