// Pages' change histories on PostgreSQL, as ../sqlite/changes.ts keeps them in SQLite.
import type { SnapshotRecord, SnapshotWrite } from "../../core/index.js";
import { snapshotBranch, toSnapshot } from "../change-codec.js";
import { getText, putBlob } from "./blobs.js";
import { column, row, rows, run, value, type Tx } from "./sql.js";

/**
 * Records a sighting of a page: the latest version is marked seen again when the page was the
 * same as it, else a version is added; timed by the run's start (the call's time when the run is
 * not found). Processes sharing the database may add a version of the same page at once: the one
 * that finds its number taken (the unique url, branch, version) reads the latest again and adds
 * after it.
 */
export async function writeSnapshot(tx: Tx, snapshot: SnapshotWrite, runId: number): Promise<void> {
  const branch = snapshotBranch(snapshot.tag);
  const at = (await value<string>(tx, "SELECT started_at FROM runs WHERE id = $1", [runId])) ?? tx.now;
  let blob: string | undefined;
  for (;;) {
    const latest = await row(tx, "SELECT id, version FROM snapshots WHERE url = $1 AND branch = $2 ORDER BY version DESC LIMIT 1", [snapshot.url, branch]);
    if (latest && snapshot.sameAs === latest.id) {
      await run(tx, "UPDATE snapshots SET last_run_id = $1, last_seen_at = $2, extracted = COALESCE(extracted, $3) WHERE id = $4", [runId, at, snapshot.extracted ?? null, latest.id]);
      return;
    }
    blob ??= await putBlob(tx, Buffer.from(snapshot.markdown));
    const added = await value<number>(
      tx,
      `INSERT INTO snapshots (url, branch, tag, version, fingerprint, normalizer_key, blob_hash, extracted, status_code, first_run_id, first_seen_at, last_run_id, last_seen_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT (url, branch, version) DO NOTHING RETURNING id`,
      [snapshot.url, branch, snapshot.tag, ((latest?.version as number | undefined) ?? 0) + 1, snapshot.fingerprint, snapshot.normalizerKey, blob, snapshot.extracted ?? null, snapshot.statusCode, runId, at, runId, at],
    );
    if (added !== undefined) return;
  }
}

export async function latestSnapshot(tx: Tx, url: string, tag: string | null): Promise<SnapshotRecord | undefined> {
  const found = await row(tx, "SELECT * FROM snapshots WHERE url = $1 AND branch = $2 ORDER BY version DESC LIMIT 1", [url, snapshotBranch(tag)]);
  return found ? toSnapshot(found) : undefined;
}

export async function snapshots(tx: Tx, url: string, tag: string | null): Promise<SnapshotRecord[]> {
  return (await rows(tx, "SELECT * FROM snapshots WHERE url = $1 AND branch = $2 ORDER BY version", [url, snapshotBranch(tag)])).map(toSnapshot);
}

export async function snapshotUrls(tx: Tx, tag: string | null): Promise<string[]> {
  return column<string>(tx, "SELECT DISTINCT url FROM snapshots WHERE branch = $1", [snapshotBranch(tag)]);
}

export async function snapshotMarkdown(tx: Tx, blobHash: string): Promise<string> {
  return getText(tx, blobHash);
}
