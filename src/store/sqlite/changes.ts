import type Database from "better-sqlite3";
import type { SnapshotRecord, SnapshotWrite } from "../../core/index.js";
import { snapshotBranch, toSnapshot } from "../change-codec.js";
import { putBlob } from "./blobs.js";

export { changeRecord, mostCommon, readChange, snapshotBranch, snapshotKey, toSnapshot } from "../change-codec.js";

type Row = Record<string, unknown>;

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

