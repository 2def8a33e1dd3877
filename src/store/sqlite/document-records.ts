import type Database from "better-sqlite3";
import type { CacheWrite, ChangeTrackingResult, Document, SnapshotWrite, StoredDocument } from "../../core/index.js";
import { changeRecord, writeSnapshot } from "./changes.js";
import { parseAssetRef, splitAssets } from "../assets.js";
import { getBlob, hasBlob, putBlob } from "./blobs.js";
import type { Row } from "../rows.js";
import { writeCacheEntry } from "./page-cache.js";
import type { SqliteChangeRecords } from "./change-records.js";

/** One page in a step's manifest. */
interface ManifestEntry {
  url: string;
  hash: string;
  statusCode: number;
  credits: number;
}

/**
 * What the SQLite store keeps of pages: each document as a blob, a step's journal rows folded into
 * its manifest when it finishes, and the assets (screenshots, PDFs) documents refer to.
 */
export class SqliteDocumentRecords {
  constructor(
    private readonly db: Database.Database,
    private readonly stamp: () => string,
    private readonly changes: SqliteChangeRecords,
  ) {}

  /** The bytes of a screenshot or PDF a stored document refers to (`blob:sha256:…;type=…`). */
  asset(ref: string): { mediaType: string; bytes: Buffer } | undefined {
    const parsed = parseAssetRef(ref);
    if (!parsed) return undefined;
    return hasBlob(this.db, parsed.hash) ? { mediaType: parsed.mediaType, bytes: getBlob(this.db, parsed.hash) } : undefined;
  }

  readonly insertDocument = (record: StoredDocument, snapshot?: SnapshotWrite, cache?: CacheWrite): void => {
    const { changeTracking, ...whole } = record.document;
    const content = splitAssets(whole, (bytes) => putBlob(this.db, bytes, "none"));
    const json = JSON.stringify(content);
    const hash = putBlob(this.db, Buffer.from(json));
    if (cache) writeCacheEntry(this.db, { url: record.url, optionsKey: cache.optionsKey, document: cache.document, fetchedAt: this.stamp() }, { document: record.document, json, hash });
    if (changeTracking) {
      const diffHash = changeTracking.diff ? putBlob(this.db, Buffer.from(JSON.stringify(changeTracking.diff))) : undefined;
      this.db.prepare("INSERT INTO page_changes (run_id, step_id, url, change) VALUES (?, ?, ?, ?) ON CONFLICT (run_id, step_id, url) DO UPDATE SET change = excluded.change").run(record.runId, record.stepId, record.url, changeRecord(changeTracking, diffHash));
    }
    if (snapshot) writeSnapshot(this.db, snapshot, record.runId, this.stamp());
    const meta = record.document.metadata;
    this.db.prepare(
      `INSERT INTO documents (run_id, step_id, url, final_url, status_code, fetched_at, credits_used, blob_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (run_id, step_id, url) DO UPDATE SET final_url = excluded.final_url, status_code = excluded.status_code,
         fetched_at = excluded.fetched_at, credits_used = excluded.credits_used, blob_hash = excluded.blob_hash`,
    ).run(record.runId, record.stepId, record.url, meta.url ?? null, meta.statusCode ?? null, record.fetchedAt, record.creditsUsed, hash);
    // The page's credits and its count stay on its row: reads add the rows up, and compaction moves them to the step and the run.
  };

  /** The pages of a step: its manifest (finished work) overlaid with journal rows (work since). */
  entries(runId: number, stepId: string): Map<string, ManifestEntry & { fetchedAt: string }> {
    const out = new Map<string, ManifestEntry & { fetchedAt: string }>();
    const step = this.db.prepare("SELECT manifest, finished_at, started_at FROM step_runs WHERE run_id = ? AND step_id = ?").get(runId, stepId) as Row | undefined;
    if (step?.manifest) {
      const at = (step.finished_at ?? step.started_at ?? "") as string;
      for (const entry of JSON.parse(getBlob(this.db, step.manifest as string).toString("utf8")) as ManifestEntry[]) out.set(entry.url, { ...entry, fetchedAt: at });
    }
    const rows = this.db.prepare("SELECT url, blob_hash, status_code, credits_used, fetched_at FROM documents WHERE run_id = ? AND step_id = ? ORDER BY id").all(runId, stepId) as Row[];
    for (const row of rows) {
      out.set(row.url as string, { url: row.url as string, hash: row.blob_hash as string, statusCode: (row.status_code as number | null) ?? 0, credits: row.credits_used as number, fetchedAt: row.fetched_at as string });
    }
    return out;
  }

  /**
   * Folds a step's journal rows into its manifest and its credits into one ledger row per reason
   * (pages: the step's total less the other reasons), in one transaction. Repeating it is harmless.
   */
  compactStep(runId: number, stepId: string): void {
    const entries = [...this.entries(runId, stepId).values()].sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
    if (entries.length > 0) {
      const manifest = entries.map(({ url, hash, statusCode, credits }) => ({ url, hash, statusCode, credits }));
      const hash = putBlob(this.db, Buffer.from(JSON.stringify(manifest)));
      this.db.prepare("UPDATE step_runs SET manifest = ?, documents = ? WHERE run_id = ? AND step_id = ?").run(hash, entries.length, runId, stepId);
    }
    const journal = this.db.prepare("SELECT COALESCE(SUM(credits_used), 0) FROM documents WHERE run_id = ? AND step_id = ?").pluck().get(runId, stepId) as number;
    if (journal !== 0) {
      this.db.prepare("UPDATE step_runs SET credits_used = credits_used + ? WHERE run_id = ? AND step_id = ?").run(journal, runId, stepId);
      this.db.prepare("UPDATE runs SET credits_used = credits_used + ? WHERE id = ?").run(journal, runId);
    }
    this.db.prepare("DELETE FROM documents WHERE run_id = ? AND step_id = ?").run(runId, stepId);
    this.changes.compactChanges(runId, stepId, entries.map((e) => e.url));
    // Pages' credits are counted on the step only, so its "page" row is what the other reasons leave of the step's total.
    const sums = this.db.prepare("SELECT reason, SUM(credits) AS credits FROM credit_ledger WHERE run_id = ? AND step_id = ? AND reason <> 'page' GROUP BY reason").all(runId, stepId) as Row[];
    const total = this.db.prepare("SELECT credits_used FROM step_runs WHERE run_id = ? AND step_id = ?").pluck().get(runId, stepId) as number | undefined;
    const pages = (total ?? 0) - sums.reduce((sum, row) => sum + (row.credits as number), 0);
    if (pages !== 0) sums.push({ reason: "page", credits: pages });
    this.db.prepare("DELETE FROM credit_ledger WHERE run_id = ? AND step_id = ?").run(runId, stepId);
    const insert = this.db.prepare("INSERT INTO credit_ledger (run_id, step_id, url, credits, reason, at) VALUES (?, ?, NULL, ?, ?, ?)");
    for (const sum of sums) insert.run(runId, stepId, sum.credits, sum.reason, this.stamp());
  }

  pageChanges(runId: number): Array<{ stepId: string; url: string; change: ChangeTrackingResult }> {
    const out: Array<{ stepId: string; url: string; change: ChangeTrackingResult }> = [];
    for (const stepId of this.db.prepare("SELECT step_id FROM step_runs WHERE run_id = ? ORDER BY rowid").pluck().all(runId) as string[]) {
      const { base, rows } = this.changes.changesOf(runId, stepId);
      if (base === undefined && rows.size === 0) continue;
      for (const url of this.entries(runId, stepId).keys()) {
        const change = this.changes.changeTrackingOf(rows.get(url) ?? base);
        if (change) out.push({ stepId, url, change });
      }
    }
    return out;
  }

  storedUrls(runId: number, stepId: string): Set<string> {
    return new Set(this.entries(runId, stepId).keys());
  }

  *documents(runId: number, stepId?: string, only?: ReadonlySet<string>): Iterable<StoredDocument> {
    const steps = stepId === undefined ? (this.db.prepare("SELECT step_id FROM step_runs WHERE run_id = ? ORDER BY rowid").pluck().all(runId) as string[]) : [stepId];
    for (const step of steps) {
      const changes = this.changes.changesOf(runId, step);
      for (const entry of this.entries(runId, step).values()) {
        if (only && !only.has(entry.url)) continue;
        const document = JSON.parse(getBlob(this.db, entry.hash).toString("utf8")) as Document;
        const changeTracking = this.changes.changeTrackingOf(changes.rows.get(entry.url) ?? changes.base);
        if (changeTracking) document.changeTracking = changeTracking;
        yield { runId, stepId: step, url: entry.url, fetchedAt: entry.fetchedAt, creditsUsed: entry.credits, document };
      }
    }
  }
}
