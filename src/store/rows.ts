// Runs and steps as read from their rows.
import type { RunRecord, RunStatus, StepRecord, StepStatus } from "../core/index.js";

export type Row = Record<string, unknown>;

/**
 * The credits of a run's pages not yet compacted into their step. Until then a page's credits
 * and its count are only on its journal row (`documents`), so storing a page writes no counter;
 * the run's and the step's columns hold the rest.
 */
export const JOURNAL_CREDITS = "(SELECT COALESCE(SUM(d.credits_used), 0) FROM documents d WHERE d.run_id = runs.id) AS journal_credits";

export function toRun(row: Row): RunRecord {
  return {
    id: row.id as number,
    pipelineName: row.pipeline_name as string,
    pipelineFile: row.pipeline_file as string,
    pipelineHash: row.pipeline_hash as string,
    engine: row.engine as string,
    status: row.status as RunStatus,
    startedAt: row.started_at as string,
    finishedAt: (row.finished_at as string | null) ?? null,
    creditsUsed: (row.credits_used as number) + ((row.journal_credits as number | undefined) ?? 0),
    error: (row.error as string | null) ?? null,
  };
}

export function toStep(row: Row): StepRecord {
  return {
    runId: row.run_id as number,
    stepId: row.step_id as string,
    kind: row.kind as string,
    status: row.status as StepStatus,
    startedAt: (row.started_at as string | null) ?? null,
    finishedAt: (row.finished_at as string | null) ?? null,
    creditsUsed: (row.credits_used as number) + ((row.journal_credits as number | undefined) ?? 0),
    documents: (row.documents as number) + ((row.journal_documents as number | undefined) ?? 0),
    failures: row.failures as number,
    error: (row.error as string | null) ?? null,
  };
}
