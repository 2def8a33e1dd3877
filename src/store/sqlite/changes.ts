import type Database from "better-sqlite3";
import type { ChangeTrackingResult, SnapshotRecord, SnapshotWrite } from "../../core/index.js";
import { putBlob } from "./blobs.js";

type Row = Record<string, unknown>;

/** The branch key of a tag: '' for the default branch (tag null), '=' + tag otherwise. */
export function snapshotBranch(tag: string | null): string {
  return tag === null ? "" : `=${tag}`;
}

/** What identifies a line of snapshots: its branch (the tag) and its URL. */
export function snapshotKey(url: string, tag: string | null): string {
  return `${snapshotBranch(tag)}\u0000${url}`;
}

/**
 * Records a sighting of a page: the latest version is marked seen again when the page was the
 * same as it, else a version is added. Sightings are timed by the run's start (`now` when the run
 * is not found), so every page of an unchanged re-run refers to the same previous time.
 */
export function writeSnapshot(db: Database.Database, snapshot: SnapshotWrite, runId: number, now: string): void {
  const branch = snapshotBranch(snapshot.tag);
  const at = (db.prepare("SELECT started_at FROM runs WHERE id = ?").pluck().get(runId) as string | undefined) ?? now;
  const latest = db.prepare("SELECT id, version FROM snapshots WHERE url = ? AND branch = ? ORDER BY version DESC LIMIT 1").get(snapshot.url, branch) as Row | undefined;
  if (latest && snapshot.sameAs === latest.id) {
    // A version first seen without json mode gains its extracted data the first time it is known.
    db.prepare("UPDATE snapshots SET last_run_id = ?, last_seen_at = ?, extracted = COALESCE(extracted, ?) WHERE id = ?").run(runId, at, snapshot.extracted ?? null, latest.id);
    return;
  }
  const blob = putBlob(db, Buffer.from(snapshot.markdown));
  db.prepare(
    `INSERT INTO snapshots (url, branch, tag, version, fingerprint, normalizer_key, blob_hash, extracted, status_code, first_run_id, first_seen_at, last_run_id, last_seen_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(snapshot.url, branch, snapshot.tag, ((latest?.version as number | undefined) ?? 0) + 1, snapshot.fingerprint, snapshot.normalizerKey, blob, snapshot.extracted ?? null, snapshot.statusCode, runId, at, runId, at);
}

/** The latest snapshot of a URL and tag. */
export function readLatestSnapshot(db: Database.Database, url: string, tag: string | null): SnapshotRecord | undefined {
  const row = db.prepare("SELECT * FROM snapshots WHERE url = ? AND branch = ? ORDER BY version DESC LIMIT 1").get(url, snapshotBranch(tag)) as Row | undefined;
  return row ? toSnapshot(row) : undefined;
}

/** A change result as stored: the diff by the hash of its blob. Keys in a fixed order, so equal results are equal strings. */
export function changeRecord(result: ChangeTrackingResult, diffHash: string | undefined): string {
  return JSON.stringify({
    changeStatus: result.changeStatus,
    visibility: result.visibility,
    previousScrapeAt: result.previousScrapeAt,
    ...(diffHash ? { diff: diffHash } : {}),
    ...(result.json !== undefined ? { json: result.json } : {}),
  });
}

/** The stored record back as the Document's changeTracking, the diff read from its blob. */
export function readChange(record: string, blob: (hash: string) => string): ChangeTrackingResult {
  const stored = JSON.parse(record) as Omit<ChangeTrackingResult, "diff"> & { diff?: string };
  const { diff, ...rest } = stored;
  const result: ChangeTrackingResult = { previousScrapeAt: rest.previousScrapeAt, changeStatus: rest.changeStatus, visibility: rest.visibility };
  if (diff !== undefined) result.diff = JSON.parse(blob(diff));
  if (rest.json !== undefined) result.json = rest.json;
  return result;
}

/** The most frequent string (the first of equals), or undefined for none. */
export function mostCommon(values: readonly string[]): string | undefined {
  const counts = new Map<string, number>();
  let best: string | undefined;
  let bestCount = 0;
  for (const value of values) {
    const n = (counts.get(value) ?? 0) + 1;
    counts.set(value, n);
    if (n > bestCount) {
      best = value;
      bestCount = n;
    }
  }
  return best;
}

export function toSnapshot(row: Row): SnapshotRecord {
  return {
    id: row.id as number,
    url: row.url as string,
    tag: (row.tag as string | null) ?? null,
    version: row.version as number,
    fingerprint: row.fingerprint as string,
    normalizerKey: row.normalizer_key as string,
    blobHash: row.blob_hash as string,
    extracted: (row.extracted as string | null) ?? null,
    statusCode: (row.status_code as number | null) ?? null,
    firstRunId: (row.first_run_id as number | null) ?? null,
    firstSeenAt: row.first_seen_at as string,
    lastRunId: (row.last_run_id as number | null) ?? null,
    lastSeenAt: row.last_seen_at as string,
  };
}
