// Change histories' keys and change results as stored, alike in every store.
import type { ChangeTrackingResult, SnapshotRecord } from "../core/index.js";
import type { Row } from "./rows.js";

/** The branch key of a tag: '' for the default branch (tag null), '=' + tag otherwise. */
export function snapshotBranch(tag: string | null): string {
  return tag === null ? "" : `=${tag}`;
}

/** What identifies a line of snapshots: its branch (the tag) and its URL. */
export function snapshotKey(url: string, tag: string | null): string {
  return `${snapshotBranch(tag)}\u0000${url}`;
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
