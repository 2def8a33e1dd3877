// The reads of the web UI (src/ui through app/ui-data/ui-data.ts): paged, and indexed or bounded, so a
// page of a database of 100k documents answers without reading the whole of a run.
import type Database from "better-sqlite3";
import type { ChangeTrackingResult, Document, RunRecord, SnapshotRecord } from "../../core/index.js";
import { getBlob } from "./blobs.js";
import { readChange, toSnapshot } from "./changes.js";
import { JOURNAL_CREDITS, toRun, type Row } from "../rows.js";
import type { ChangeCounts, ReadScope, RunListRow, StepEntry, UiReads } from "../tables.js";

/** A team's runs: those of its jobs, and those of its monitors' checks (one parameter: the team's id). */
const TEAM_RUNS = `id IN (WITH t (team) AS (SELECT ?)
  SELECT j.run_id FROM serve_jobs j, t WHERE j.team_id = t.team AND j.run_id IS NOT NULL
  UNION ALL SELECT c.run_id FROM monitors m JOIN monitor_checks c ON c.monitor_id = m.id, t WHERE m.team_id = t.team AND c.run_id IS NOT NULL)`;

/** Parsed manifests, by content hash (immutable), a few at a time: paging through a large step reads its manifest once. */
class ManifestCache {
  private readonly entries = new Map<string, StepEntry[]>();
  constructor(private readonly size = 6) {}

  get(db: Database.Database, hash: string): StepEntry[] {
    let found = this.entries.get(hash);
    if (found) {
      this.entries.delete(hash);
    } else {
      found = JSON.parse(getBlob(db, hash).toString("utf8")) as StepEntry[];
      if (this.entries.size >= this.size) this.entries.delete(this.entries.keys().next().value!);
    }
    this.entries.set(hash, found);
    return found;
  }
}

export class SqliteUiReads implements UiReads {
  private readonly manifests = new ManifestCache();

  constructor(private readonly db: Database.Database) {}

  /** Pipeline names with runs, sorted. */
  pipelines(scope: ReadScope = {}): string[] {
    const where = scope.teamId === undefined ? "" : `WHERE ${TEAM_RUNS}`;
    return this.db.prepare(`SELECT DISTINCT pipeline_name FROM runs ${where} ORDER BY pipeline_name`).pluck().all(...(scope.teamId === undefined ? [] : [scope.teamId])) as string[];
  }

  /** Runs newest first, `limit` of them with ids below `before`; `status` as reads report it (a dead 'running' run is interrupted). */
  runs(filter: { pipeline?: string; status?: string; before?: number; limit: number }, scope: ReadScope = {}): { rows: RunListRow[]; more: boolean } {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.pipeline !== undefined) (where.push("pipeline_name = ?"), params.push(filter.pipeline));
    if (filter.status !== undefined) {
      if (filter.status === "interrupted" || filter.status === "running") where.push("status IN ('interrupted', 'running')");
      else (where.push("status = ?"), params.push(filter.status));
    }
    if (filter.before !== undefined) (where.push("id < ?"), params.push(filter.before));
    if (scope.teamId !== undefined) (where.push(TEAM_RUNS), params.push(scope.teamId));
    const sql = `SELECT *, ${JOURNAL_CREDITS} FROM runs ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY id DESC LIMIT ?`;
    const rows: RunListRow[] = [];
    let more = false;
    // Running rows whose process died read as interrupted: the status filter is applied again on the record.
    for (const row of this.db.prepare(sql).iterate(...params, filter.limit + 1) as Iterable<Row>) {
      const run = toRun(row);
      if (filter.status !== undefined && run.status !== filter.status) continue;
      if (rows.length === filter.limit) {
        more = true;
        break;
      }
      rows.push({ run, ...this.runCounts(run.id) });
    }
    return { rows, more };
  }

  runVisible(runId: number, scope: ReadScope): boolean {
    if (scope.teamId === undefined) return this.db.prepare("SELECT 1 FROM runs WHERE id = ?").get(runId) !== undefined;
    return this.db.prepare(`SELECT 1 FROM runs WHERE id = ? AND ${TEAM_RUNS}`).get(runId, scope.teamId) !== undefined;
  }

  /** Documents, failures and change counts of a run, from its steps' counters and change rows. */
  runCounts(runId: number): { documents: number; failures: number; changes: ChangeCounts } {
    const steps = this.db.prepare(
      `SELECT step_id, documents + (SELECT COUNT(*) FROM documents d WHERE d.run_id = s.run_id AND d.step_id = s.step_id) AS documents, failures, change_base
       FROM step_runs s WHERE run_id = ?`,
    ).all(runId) as Row[];
    const changes: ChangeCounts = { new: 0, same: 0, changed: 0, removed: 0, hidden: 0 };
    let documents = 0;
    let failures = 0;
    for (const step of steps) {
      documents += step.documents as number;
      failures += step.failures as number;
      const grouped = this.db.prepare(
        `SELECT json_extract(change, '$.changeStatus') AS status, json_extract(change, '$.visibility') AS visibility, COUNT(*) AS n
         FROM page_changes WHERE run_id = ? AND step_id = ? GROUP BY 1, 2`,
      ).all(runId, step.step_id) as Row[];
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

  /** A step's pages sorted by URL: its manifest overlaid with the pages stored since. */
  stepEntries(runId: number, stepId: string): StepEntry[] {
    const manifest = this.db.prepare("SELECT manifest FROM step_runs WHERE run_id = ? AND step_id = ?").pluck().get(runId, stepId) as string | null | undefined;
    const base = manifest ? this.manifests.get(this.db, manifest) : [];
    const journal = this.db.prepare("SELECT url, blob_hash, status_code, credits_used FROM documents WHERE run_id = ? AND step_id = ?").all(runId, stepId) as Row[];
    if (journal.length === 0) return base;
    const merged = new Map(base.map((e) => [e.url, e]));
    for (const r of journal) merged.set(r.url as string, { url: r.url as string, hash: r.blob_hash as string, statusCode: (r.status_code as number | null) ?? 0, credits: r.credits_used as number });
    return [...merged.values()].sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  }

  /** The change result of each page of a step that has one: the step's common result (base) and the pages that differ from it. */
  stepChanges(runId: number, stepId: string): { base: string | undefined; rows: Map<string, string> } {
    const base = (this.db.prepare("SELECT change_base FROM step_runs WHERE run_id = ? AND step_id = ?").pluck().get(runId, stepId) as string | null | undefined) ?? undefined;
    const rows = this.db.prepare("SELECT url, change FROM page_changes WHERE run_id = ? AND step_id = ?").all(runId, stepId) as Row[];
    return { base, rows: new Map(rows.map((r) => [r.url as string, r.change as string])) };
  }

  /** A stored change record read back (its diff from its blob). */
  change(record: string): ChangeTrackingResult {
    return readChange(record, (hash) => getBlob(this.db, hash).toString("utf8"));
  }

  /** One stored document of a run's step, with its change-tracking result. */
  document(runId: number, stepId: string, url: string): { document: Document; entry: StepEntry } | undefined {
    const entries = this.stepEntries(runId, stepId);
    const entry = findSorted(entries, url);
    if (!entry) return undefined;
    const document = JSON.parse(getBlob(this.db, entry.hash).toString("utf8")) as Document;
    const changes = this.stepChanges(runId, stepId);
    const record = changes.rows.get(url) ?? changes.base;
    if (record !== undefined) document.changeTracking = this.change(record);
    return { document, entry };
  }

  /** The steps' ids of a run, in the order they started. */
  stepIds(runId: number): string[] {
    return this.db.prepare("SELECT step_id FROM step_runs WHERE run_id = ? ORDER BY rowid").pluck().all(runId) as string[];
  }

  /** Every version of a URL's history, on every tag, by tag then version. */
  snapshots(url: string): SnapshotRecord[] {
    return (this.db.prepare("SELECT * FROM snapshots WHERE url = ? ORDER BY branch, version").all(url) as Row[]).map(toSnapshot);
  }

  snapshotMarkdown(snapshot: SnapshotRecord): string {
    return getBlob(this.db, snapshot.blobHash).toString("utf8");
  }

  failures(runId: number, offset: number, limit: number): ReturnType<typeof failurePage> {
    return failurePage(this.db, runId, offset, limit);
  }

  creditReasons(runId: number): ReturnType<typeof creditReasons> {
    return creditReasons(this.db, runId);
  }

  /** Credits and change counts of a pipeline's newest `limit` runs, oldest first (for charts). */
  series(pipeline: string, limit: number, scope: ReadScope = {}): Array<{ run: RunRecord; changes: ChangeCounts }> {
    const { rows } = this.runs({ pipeline, limit }, scope);
    return rows.reverse().map((r) => ({ run: r.run, changes: r.changes }));
  }
}

/** The entry of a URL in entries sorted by URL (binary search). */
function findSorted(entries: StepEntry[], url: string): StepEntry | undefined {
  let low = 0;
  let high = entries.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const at = entries[mid]!.url;
    if (at === url) return entries[mid];
    if (at < url) low = mid + 1;
    else high = mid - 1;
  }
  return undefined;
}

/** A run's failed pages, `limit` from `offset`, and how many there are. */
export function failurePage(db: Database.Database, runId: number, offset: number, limit: number): { total: number; rows: Array<{ stepId: string; url: string; kind: string; error: string; failedAt: string }> } {
  const total = db.prepare("SELECT COUNT(*) FROM failures WHERE run_id = ?").pluck().get(runId) as number;
  const rows = db.prepare("SELECT step_id, url, kind, error, failed_at FROM failures WHERE run_id = ? ORDER BY id LIMIT ? OFFSET ?").all(runId, limit, offset) as Row[];
  return { total, rows: rows.map((r) => ({ stepId: r.step_id as string, url: r.url as string, kind: r.kind as string, error: r.error as string, failedAt: r.failed_at as string })) };
}

/** Credits of a run by step and reason, from its ledger. */
export function creditReasons(db: Database.Database, runId: number): Array<{ stepId: string; reason: string; credits: number }> {
  const rows = db.prepare("SELECT step_id, reason, SUM(credits) AS credits FROM credit_ledger WHERE run_id = ? GROUP BY step_id, reason ORDER BY step_id, reason").all(runId) as Row[];
  return rows.map((r) => ({ stepId: r.step_id as string, reason: r.reason as string, credits: r.credits as number }));
}
