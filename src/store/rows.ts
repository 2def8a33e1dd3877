// Runs and steps as read from their rows.
import type { ExpectationVerdict, RunRecord, RunStatus, StepRecord, StepStatus } from "../core/index.js";
import { ownerAlive } from "./owner.js";

export type Row = Record<string, unknown>;

/**
 * The credits of a run's pages not yet compacted into their step. Until then a page's credits
 * and its count are only on its journal row (`documents`), so storing a page writes no counter;
 * the run's and the step's columns hold the rest.
 */
export const JOURNAL_CREDITS = "(SELECT COALESCE(SUM(d.credits_used), 0) FROM documents d WHERE d.run_id = runs.id) AS journal_credits";

/**
 * A run as read from its row. A run still 'running' whose process is gone (killed, crashed, the
 * machine restarted) reads as interrupted, which is what it is: --resume continues it.
 */
export function toRun(row: Row): RunRecord {
  const owner = typeof row.owner_host === "string" && typeof row.owner_pid === "number" ? { host: row.owner_host, pid: row.owner_pid } : undefined;
  const dead = row.status === "running" && owner !== undefined && ownerAlive({ ...owner, started: (row.owner_started as string | null) ?? null }) === false;
  return {
    id: row.id as number,
    pipelineName: row.pipeline_name as string,
    pipelineFile: row.pipeline_file as string,
    pipelineHash: row.pipeline_hash as string,
    engine: row.engine as string,
    status: dead ? "interrupted" : (row.status as RunStatus),
    startedAt: row.started_at as string,
    finishedAt: (row.finished_at as string | null) ?? null,
    creditsUsed: (row.credits_used as number) + ((row.journal_credits as number | undefined) ?? 0),
    error: dead ? `the process running it (pid ${owner!.pid} on ${owner!.host}) stopped before the run finished` : ((row.error as string | null) ?? null),
    ...(owner ? { owner } : {}),
    ...(typeof row.resume_words === "string" ? { resumeWords: JSON.parse(row.resume_words) as string[] } : {}),
    ...(typeof row.from_run === "number" ? { fromRun: row.from_run } : {}),
    ...verdictOf(row),
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
    retries: (row.retries as number | undefined) ?? 0,
    ...verdictOf(row),
  };
}

function verdictOf(row: Row): { expectations?: ExpectationVerdict } {
  return typeof row.expectations === "string" ? { expectations: JSON.parse(row.expectations) as ExpectationVerdict } : {};
}
