// The web UI's reads on PostgreSQL (the thread's side; ../tables.ts says what each does, ../sqlite/ui-reads.ts does the same on SQLite).
import type { ChangeTrackingResult, Document } from "../../core/index.js";
import { toSnapshot } from "../change-codec.js";
import { toRun } from "../rows.js";
import type { ChangeCounts, ReadScope, RunListRow, StepEntry, UiReads } from "../tables.js";
import { getText } from "./blobs.js";
import type { OnThread } from "./on-thread.js";
import { changesOf, changeTrackingOf, entries } from "./pages.js";
import { JOURNAL_CREDITS, stepIds } from "./runs.js";
import { column, rows, value, type Tx } from "./sql.js";

/** A team's runs: those of its jobs and of its monitors' checks (`$n` is the team's id). */
const teamRuns = (n: number) => `id IN (SELECT j.run_id FROM serve_jobs j WHERE j.team_id = $${n} AND j.run_id IS NOT NULL
  UNION ALL SELECT c.run_id FROM monitors m JOIN monitor_checks c ON c.monitor_id = m.id WHERE m.team_id = $${n} AND c.run_id IS NOT NULL)`;

async function runCounts(tx: Tx, runId: number): Promise<{ documents: number; failures: number; changes: ChangeCounts }> {
  const steps = await rows(
    tx,
    `SELECT step_id, documents + (SELECT COUNT(*) FROM documents d WHERE d.run_id = s.run_id AND d.step_id = s.step_id)::int AS documents, failures, change_base
     FROM step_runs s WHERE run_id = $1`,
    [runId],
  );
  const changes: ChangeCounts = { new: 0, same: 0, changed: 0, removed: 0, hidden: 0 };
  let documents = 0;
  let failures = 0;
  for (const step of steps) {
    documents += step.documents as number;
    failures += step.failures as number;
    const grouped = await rows(
      tx,
      `SELECT change::jsonb ->> 'changeStatus' AS status, change::jsonb ->> 'visibility' AS visibility, COUNT(*)::int AS n
       FROM page_changes WHERE run_id = $1 AND step_id = $2 GROUP BY 1, 2`,
      [runId, step.step_id],
    );
    let withRow = 0;
    for (const g of grouped) {
      withRow += g.n as number;
      changes[g.status as keyof ChangeCounts] += g.n as number;
      if (g.visibility === "hidden") changes.hidden += g.n as number;
    }
    if (typeof step.change_base === "string") {
      const base = JSON.parse(step.change_base) as ChangeTrackingResult;
      const rest = Math.max(0, (step.documents as number) - withRow);
      changes[base.changeStatus] += rest;
      if (base.visibility === "hidden") changes.hidden += rest;
    }
  }
  return { documents, failures, changes };
}

async function stepEntries(tx: Tx, runId: number, stepId: string): Promise<StepEntry[]> {
  const found = [...(await entries(tx, runId, stepId)).values()].map(({ url, hash, statusCode, credits }) => ({ url, hash, statusCode, credits }));
  return found.sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
}

async function runsOf(tx: Tx, filter: { pipeline?: string; status?: string; before?: number; limit: number }, scope: ReadScope = {}): Promise<{ rows: RunListRow[]; more: boolean }> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.pipeline !== undefined) where.push(`pipeline_name = $${params.push(filter.pipeline)}`);
  if (filter.status !== undefined) {
    if (filter.status === "interrupted" || filter.status === "running") where.push("status IN ('interrupted', 'running')");
    else where.push(`status = $${params.push(filter.status)}`);
  }
  if (filter.before !== undefined) where.push(`id < $${params.push(filter.before)}`);
  if (scope.teamId !== undefined) where.push(teamRuns(params.push(scope.teamId)));
  // Running rows whose process died read as interrupted: the status filter is applied again on the record.
  const sql = `SELECT *, ${JOURNAL_CREDITS} FROM runs ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY id DESC LIMIT $${params.push(filter.limit + 1)}`;
  const out: RunListRow[] = [];
  let more = false;
  for (const found of await rows(tx, sql, params)) {
    const run = toRun(found);
    if (filter.status !== undefined && run.status !== filter.status) continue;
    if (out.length === filter.limit) {
      more = true;
      break;
    }
    out.push({ run, ...(await runCounts(tx, run.id)) });
  }
  return { rows: out, more };
}

export const UI_READS: OnThread<UiReads> = {
  async pipelines(tx, scope = {}) {
    if (scope.teamId === undefined) return column<string>(tx, "SELECT DISTINCT pipeline_name FROM runs ORDER BY pipeline_name");
    return column<string>(tx, `SELECT DISTINCT pipeline_name FROM runs WHERE ${teamRuns(1)} ORDER BY pipeline_name`, [scope.teamId]);
  },
  runs: runsOf,
  async runVisible(tx, runId, scope) {
    if (scope.teamId === undefined) return (await value(tx, "SELECT 1 FROM runs WHERE id = $1", [runId])) !== undefined;
    return (await value(tx, `SELECT 1 FROM runs WHERE id = $1 AND ${teamRuns(2)}`, [runId, scope.teamId])) !== undefined;
  },
  runCounts,
  stepEntries,
  async stepChanges(tx, runId, stepId) {
    const { base, changes } = await changesOf(tx, runId, stepId);
    return { base, rows: changes };
  },
  async change(tx, record) {
    return (await changeTrackingOf(tx, record))!;
  },
  async document(tx, runId, stepId, url) {
    const entry = (await stepEntries(tx, runId, stepId)).find((e) => e.url === url);
    if (!entry) return undefined;
    const document = JSON.parse(await getText(tx, entry.hash)) as Document;
    const { base, changes } = await changesOf(tx, runId, stepId);
    const record = changes.get(url) ?? base;
    if (record !== undefined) document.changeTracking = (await changeTrackingOf(tx, record))!;
    return { document, entry };
  },
  stepIds,
  async snapshots(tx, url) {
    return (await rows(tx, "SELECT * FROM snapshots WHERE url = $1 ORDER BY branch, version", [url])).map(toSnapshot);
  },
  async snapshotMarkdown(tx, snapshot) {
    return getText(tx, snapshot.blobHash);
  },
  async failures(tx, runId, offset, limit) {
    const total = Number(await value(tx, "SELECT COUNT(*) FROM failures WHERE run_id = $1", [runId]));
    const found = await rows(tx, "SELECT step_id, url, kind, error, failed_at FROM failures WHERE run_id = $1 ORDER BY id LIMIT $2 OFFSET $3", [runId, limit, offset]);
    return { total, rows: found.map((r) => ({ stepId: r.step_id as string, url: r.url as string, kind: r.kind as string, error: r.error as string, failedAt: r.failed_at as string })) };
  },
  async creditReasons(tx, runId) {
    const found = await rows(tx, "SELECT step_id, reason, SUM(credits)::int AS credits FROM credit_ledger WHERE run_id = $1 GROUP BY step_id, reason ORDER BY step_id, reason", [runId]);
    return found.map((r) => ({ stepId: r.step_id as string, reason: r.reason as string, credits: r.credits as number }));
  },
  async series(tx, pipeline, limit, scope = {}) {
    const { rows: found } = await runsOf(tx, { pipeline, limit }, scope);
    return found.reverse().map((r) => ({ run: r.run, changes: r.changes }));
  },
};
