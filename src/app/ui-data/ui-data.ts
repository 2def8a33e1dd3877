import type { ChangeTrackingResult, Document, ExtractResult, RunRecord, SnapshotRecord, StepRecord } from "../../core/index.js";
import type { ChangeCounts, ReadScope, RunListRow, RunsStore, StepEntry, UiReads } from "../../store/index.js";
import { monitorView, type CheckView, type MonitorView } from "../monitor/index.js";
import { scheduleWords } from "../monitor/index.js";
import { lineDiff, type DiffStretch } from "./diff.js";
import { openExistingRunStore } from "../common/index.js";

export type { ChangeCounts, CheckView, DiffStretch, MonitorView, ReadScope, RunListRow, StepEntry };

/** A monitor as the UI lists it: the listing's view with its schedule in words and as cron. */
export interface MonitorRow extends MonitorView {
  words: string | undefined;
  cron: string | undefined;
}

export interface VersionDiff {
  url: string;
  tag: string | null;
  from: SnapshotRecord;
  to: SnapshotRecord;
  stretches: DiffStretch[];
  added: number;
  removed: number;
  /** The versions were too large to diff on a page (MAX_DIFF_CHARS). */
  tooLarge: boolean;
}

export interface RunView {
  run: RunRecord;
  durationMs: number | null;
  documents: number;
  failures: number;
  changes: ChangeCounts;
  steps: StepRecord[];
  credits: Array<{ stepId: string; reason: string; credits: number }>;
  warnings: Array<{ stepId: string; url: string | null; message: string }>;
  results: Record<string, ExtractResult>;
}

export interface ChangedPage {
  stepId: string;
  url: string;
  change: ChangeTrackingResult;
  /** The version first seen in this run against the one before it, when both are stored. */
  diff?: VersionDiff;
}

/** Most characters two versions may have together to be diffed on a page; beyond, the page says so instead. */
export const MAX_DIFF_CHARS = 2_000_000;

/**
 * The read use cases of the web UI (src/ui), over one open store: runs, a run, its documents and
 * changes, a page's versions, and the figures of the charts. Everything is paged; nothing writes.
 */
export class UiData {
  private readonly reads: UiReads;

  constructor(private readonly store: RunsStore) {
    this.reads = store.uiReads();
  }

  /** Opens a database that must exist (a mistyped --db is reported, not created). */
  static open(db: string): UiData {
    return new UiData(openExistingRunStore(db));
  }

  pipelines(scope: ReadScope = {}): string[] {
    return this.reads.pipelines(scope);
  }

  runs(filter: { pipeline?: string; status?: string; before?: number; limit: number }, scope: ReadScope = {}): { rows: RunListRow[]; nextBefore?: number } {
    const { rows, more } = this.reads.runs(filter, scope);
    return { rows, ...(more && rows.length ? { nextBefore: rows[rows.length - 1]!.run.id } : {}) };
  }

  run(id: number, scope: ReadScope = {}): RunView | undefined {
    if (!this.reads.runVisible(id, scope)) return undefined;
    const run = this.store.getRun(id)!;
    const steps = this.store.getSteps(id);
    const results: Record<string, ExtractResult> = {};
    for (const step of steps) {
      // A search step's result is its search answer (its pages and failures show as any step's), not an extract's.
      if (step.kind === "search") continue;
      const result = this.store.stepResult(id, step.stepId);
      if (result !== undefined) results[step.stepId] = JSON.parse(result) as ExtractResult;
    }
    const counts = this.reads.runCounts(id);
    return {
      run,
      durationMs: run.finishedAt ? Date.parse(run.finishedAt) - Date.parse(run.startedAt) : null,
      ...counts,
      steps,
      credits: this.reads.creditReasons(id),
      warnings: this.store.warnings(id).map(({ stepId, url, message }) => ({ stepId, url, message })),
      results,
    };
  }

  /** A step's pages, `limit` from `offset`, sorted by URL, each with its change status. */
  stepPages(runId: number, stepId: string, offset: number, limit: number): { total: number; pages: Array<StepEntry & { changeStatus?: string }> } {
    const entries = this.reads.stepEntries(runId, stepId);
    const changes = this.reads.stepChanges(runId, stepId);
    const base = changes.base === undefined ? undefined : (JSON.parse(changes.base) as ChangeTrackingResult).changeStatus;
    const pages = entries.slice(offset, offset + limit).map((entry) => {
      const record = changes.rows.get(entry.url);
      const status = record === undefined ? base : (JSON.parse(record) as ChangeTrackingResult).changeStatus;
      return status === undefined ? entry : { ...entry, changeStatus: status };
    });
    return { total: entries.length, pages };
  }

  failures(runId: number, offset: number, limit: number) {
    return this.reads.failures(runId, offset, limit);
  }

  /** One stored page of a run's step, with the diff of the version this run added (when it added one). */
  document(runId: number, stepId: string, url: string, scope: ReadScope = {}): { document: Document; entry: StepEntry; diff?: VersionDiff } | undefined {
    if (!this.reads.runVisible(runId, scope)) return undefined;
    const found = this.reads.document(runId, stepId, url);
    if (!found) return undefined;
    const diff = found.document.changeTracking?.changeStatus === "changed" || found.document.changeTracking?.changeStatus === "removed" ? this.diffAddedIn(url, runId) : undefined;
    return { ...found, ...(diff ? { diff } : {}) };
  }

  /** The pages of a run that are not the same (or were hidden), `limit` from `offset`, with their diffs. */
  changes(runId: number, options: { offset: number; limit: number; status?: string }, scope: ReadScope = {}): { total: number; pages: ChangedPage[] } | undefined {
    if (!this.reads.runVisible(runId, scope)) return undefined;
    const wanted = (record: string) => {
      const change = JSON.parse(record) as ChangeTrackingResult;
      if (options.status !== undefined) return options.status === "hidden" ? change.visibility === "hidden" : change.changeStatus === options.status;
      return change.changeStatus !== "same" || change.visibility === "hidden";
    };
    const listed: Array<{ stepId: string; url: string; record: string }> = [];
    for (const stepId of this.reads.stepIds(runId)) {
      const { base, rows } = this.reads.stepChanges(runId, stepId);
      if (base !== undefined && wanted(base)) {
        for (const entry of this.reads.stepEntries(runId, stepId)) {
          const record: string = rows.get(entry.url) ?? base;
          if (record === base || wanted(record)) listed.push({ stepId, url: entry.url, record });
        }
      } else {
        const own = [...rows].filter(([, record]) => wanted(record)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
        for (const [url, record] of own) listed.push({ stepId, url, record });
      }
    }
    const pages = listed.slice(options.offset, options.offset + options.limit).map(({ stepId, url, record }) => {
      const change = this.reads.change(record);
      const diff = change.changeStatus === "changed" || change.changeStatus === "removed" ? this.diffAddedIn(url, runId) : undefined;
      return { stepId, url, change, ...(diff ? { diff } : {}) };
    });
    return { total: listed.length, pages };
  }

  /** Every version of a page on every tag, oldest first per tag; in a team's view, only versions its runs saw. */
  history(url: string, scope: ReadScope = {}): SnapshotRecord[] {
    const all = this.reads.snapshots(url);
    if (scope.teamId === undefined) return all;
    return all.filter((v) => (v.firstRunId !== null && this.reads.runVisible(v.firstRunId, scope)) || (v.lastRunId !== null && this.reads.runVisible(v.lastRunId, scope)));
  }

  /** The diff between two versions (snapshot ids) of one page's history. */
  compare(url: string, fromId: number, toId: number, scope: ReadScope = {}): VersionDiff | undefined {
    const versions = this.history(url, scope);
    const from = versions.find((v) => v.id === fromId);
    const to = versions.find((v) => v.id === toId);
    return from && to ? this.diffOf(from, to) : undefined;
  }

  /** Credits and changed pages of a pipeline's newest runs, oldest first. */
  series(pipeline: string, limit: number, scope: ReadScope = {}): Array<{ runId: number; startedAt: string; credits: number; changed: number; status: string }> {
    return this.reads.series(pipeline, limit, scope).map(({ run, changes }) => ({ runId: run.id, startedAt: run.startedAt, credits: run.creditsUsed, changed: changes.changed + changes.new + changes.removed, status: run.status }));
  }

  /** Every monitor by name; in a team's view, only serve's monitors of that team. */
  monitors(scope: ReadScope = {}): MonitorRow[] {
    const tables = this.store.monitorTables();
    const records = tables.list(scope.teamId === undefined ? {} : { source: "api", teamId: scope.teamId });
    return records.map((m) => ({ ...monitorView(tables, m), ...scheduleWords(m.schedule) }));
  }

  /** One monitor (by id) with its newest checks, each with its notifications; undefined when the scope does not see it. */
  monitor(id: number, limit: number, scope: ReadScope = {}): { monitor: MonitorRow; checks: CheckView[] } | undefined {
    const tables = this.store.monitorTables();
    const record = tables.byId(id);
    if (!record || (scope.teamId !== undefined && (record.source !== "api" || record.teamId !== scope.teamId))) return undefined;
    const checks = tables.checks(id, { limit }).map(({ owner: _owner, ...check }) => ({ ...check, notifications: tables.notifications(check.id) }));
    return { monitor: { ...monitorView(tables, record), ...scheduleWords(record.schedule) }, checks };
  }

  /**
   * A stored screenshot or PDF by its reference. In a team's view (and whenever `from` is given)
   * only when it belongs to that document, of a run the scope can see: blobs are shared by hash
   * across runs, so a hash alone says nothing about whose it is.
   */
  asset(ref: string, scope: ReadScope = {}, from?: { runId: number; stepId: string; url: string }): { mediaType: string; bytes: Buffer } | undefined {
    if (scope.teamId !== undefined && from === undefined) return undefined;
    if (from !== undefined) {
      const doc = this.document(from.runId, from.stepId, from.url, scope)?.document;
      const refs = doc ? [doc.screenshot, ...(doc.actions?.screenshots ?? []), ...(doc.actions?.pdfs ?? [])] : [];
      if (!refs.includes(ref)) return undefined;
    }
    return this.store.asset(ref);
  }

  close(): void {
    this.store.close();
  }

  /** The version of a page first seen in `runId` against the version before it on the same tag. */
  private diffAddedIn(url: string, runId: number): VersionDiff | undefined {
    const versions = this.reads.snapshots(url);
    const index = versions.findIndex((v) => v.firstRunId === runId);
    const to = versions[index];
    const from = versions[index - 1];
    if (!to || !from || from.tag !== to.tag) return undefined;
    return this.diffOf(from, to);
  }

  private diffOf(from: SnapshotRecord, to: SnapshotRecord): VersionDiff {
    const before = this.reads.snapshotMarkdown(from);
    const after = this.reads.snapshotMarkdown(to);
    const tooLarge = before.length + after.length > MAX_DIFF_CHARS;
    const diff = tooLarge ? { stretches: [], added: 0, removed: 0 } : lineDiff(before, after);
    return { url: to.url, tag: to.tag, from, to, ...diff, tooLarge };
  }
}
