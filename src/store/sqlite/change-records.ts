import type Database from "better-sqlite3";
import type { ChangeTrackingResult, SnapshotRecord } from "../../core/index.js";
import { mostCommon, readChange, readLatestSnapshot, snapshotBranch, toSnapshot } from "./changes.js";
import { getBlob } from "./blobs.js";
import type { Row } from "../rows.js";

/** What the SQLite store keeps of change tracking: each page's history (snapshots) and the change result of each stored page. */
export class SqliteChangeRecords {
  constructor(private readonly db: Database.Database) {}

  /** The newest version of a page's history for a tag. */
  latestSnapshot(url: string, tag: string | null): SnapshotRecord | undefined {
    return readLatestSnapshot(this.db, url, tag);
  }

  snapshots(url: string, tag: string | null): SnapshotRecord[] {
    return (this.db.prepare("SELECT * FROM snapshots WHERE url = ? AND branch = ? ORDER BY version").all(url, snapshotBranch(tag)) as Row[]).map(toSnapshot);
  }

  /** Every URL with a history on a tag's branch (null: the default one). */
  snapshotUrls(tag: string | null): string[] {
    return this.db.prepare("SELECT DISTINCT url FROM snapshots WHERE branch = ?").pluck().all(snapshotBranch(tag)) as string[];
  }

  snapshotMarkdown(snapshot: SnapshotRecord): string {
    return getBlob(this.db, snapshot.blobHash).toString("utf8");
  }

  /** Keeps the most common change result once, on the step, and a row only for pages that differ from it. */
  compactChanges(runId: number, stepId: string, urls: string[]): void {
    const { base, rows } = this.changesOf(runId, stepId);
    if (base === undefined && rows.size === 0) return;
    const effective = urls.flatMap((url) => {
      const change = rows.get(url) ?? base;
      return change === undefined ? [] : [[url, change] as const];
    });
    const common = mostCommon(effective.map(([, change]) => change));
    this.db.prepare("DELETE FROM page_changes WHERE run_id = ? AND step_id = ?").run(runId, stepId);
    const insert = this.db.prepare("INSERT INTO page_changes (run_id, step_id, url, change) VALUES (?, ?, ?, ?)");
    for (const [url, change] of effective) if (change !== common) insert.run(runId, stepId, url, change);
    this.db.prepare("UPDATE step_runs SET change_base = ? WHERE run_id = ? AND step_id = ?").run(common ?? null, runId, stepId);
  }

  changesOf(runId: number, stepId: string): { base: string | undefined; rows: Map<string, string> } {
    const base = (this.db.prepare("SELECT change_base FROM step_runs WHERE run_id = ? AND step_id = ?").pluck().get(runId, stepId) as string | null | undefined) ?? undefined;
    const rows = this.db.prepare("SELECT url, change FROM page_changes WHERE run_id = ? AND step_id = ?").all(runId, stepId) as Row[];
    return { base, rows: new Map(rows.map((r) => [r.url as string, r.change as string])) };
  }

  changeTrackingOf(change: string | undefined): ChangeTrackingResult | undefined {
    return change === undefined ? undefined : readChange(change, (hash) => getBlob(this.db, hash).toString("utf8"));
  }
}
