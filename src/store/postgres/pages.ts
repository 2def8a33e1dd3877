// A step's pages on PostgreSQL: the journal rows written per page, the manifest a finished step
// folds them into, and the change results kept beside them (as ../sqlite/document-records.ts keeps them).
import type { CacheWrite, ChangeTrackingResult, Document, SnapshotWrite, StoredDocument } from "../../core/index.js";
import { splitAssets } from "../assets.js";
import { blobHash } from "../blob-codec.js";
import { changeRecord, mostCommon, readChange } from "../change-codec.js";
import { getText, putBlob } from "./blobs.js";
import { writeCacheEntry } from "./cache.js";
import { writeSnapshot } from "./snapshots.js";
import { column, rows, run, value, type Tx } from "./sql.js";

/** One page of a step: where its document is, what it cost, when it was fetched. */
export interface PageEntry {
  url: string;
  hash: string;
  statusCode: number;
  credits: number;
  fetchedAt: string;
}

/** Stores a page with its change result, snapshot and cache entry (the caller's transaction makes it all or nothing). */
export async function saveDocument(tx: Tx, record: StoredDocument, snapshot?: SnapshotWrite, cache?: CacheWrite): Promise<void> {
  const { changeTracking, ...whole } = record.document;
  // Screenshots and PDFs become blobs of their own, referred to by hash (stored after the split, which names them).
  const assets: Buffer[] = [];
  const content = splitAssets(whole, (bytes) => {
    assets.push(bytes);
    return blobHash(bytes);
  });
  for (const bytes of assets) await putBlob(tx, bytes, "none");
  const json = JSON.stringify(content);
  const hash = await putBlob(tx, Buffer.from(json));
  if (cache) await writeCacheEntry(tx, { url: record.url, optionsKey: cache.optionsKey, document: cache.document, fetchedAt: tx.now }, { document: record.document, json, hash });
  if (changeTracking) {
    const diffHash = changeTracking.diff ? await putBlob(tx, Buffer.from(JSON.stringify(changeTracking.diff))) : undefined;
    await run(tx, "INSERT INTO page_changes (run_id, step_id, url, change) VALUES ($1, $2, $3, $4) ON CONFLICT (run_id, step_id, url) DO UPDATE SET change = excluded.change", [
      record.runId,
      record.stepId,
      record.url,
      changeRecord(changeTracking, diffHash),
    ]);
  }
  if (snapshot) await writeSnapshot(tx, snapshot, record.runId);
  const meta = record.document.metadata;
  await run(
    tx,
    `INSERT INTO documents (run_id, step_id, url, final_url, status_code, fetched_at, credits_used, blob_hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (run_id, step_id, url) DO UPDATE SET final_url = excluded.final_url, status_code = excluded.status_code,
       fetched_at = excluded.fetched_at, credits_used = excluded.credits_used, blob_hash = excluded.blob_hash`,
    [record.runId, record.stepId, record.url, meta.url ?? null, meta.statusCode ?? null, record.fetchedAt, record.creditsUsed, hash],
  );
}

/** The pages of a step: its manifest (finished work) overlaid with journal rows (work since). */
export async function entries(tx: Tx, runId: number, stepId: string): Promise<Map<string, PageEntry>> {
  const out = new Map<string, PageEntry>();
  const step = (await rows(tx, "SELECT manifest, finished_at, started_at FROM step_runs WHERE run_id = $1 AND step_id = $2", [runId, stepId]))[0];
  if (step?.manifest) {
    const at = (step.finished_at ?? step.started_at ?? "") as string;
    for (const entry of JSON.parse(await getText(tx, step.manifest as string)) as Array<Omit<PageEntry, "fetchedAt">>) out.set(entry.url, { ...entry, fetchedAt: at });
  }
  const journal = await rows(tx, "SELECT url, blob_hash, status_code, credits_used, fetched_at FROM documents WHERE run_id = $1 AND step_id = $2 ORDER BY id", [runId, stepId]);
  for (const r of journal) {
    out.set(r.url as string, { url: r.url as string, hash: r.blob_hash as string, statusCode: (r.status_code as number | null) ?? 0, credits: r.credits_used as number, fetchedAt: r.fetched_at as string });
  }
  return out;
}

/**
 * Folds a step's journal rows into its manifest and its credits into one ledger row per reason
 * (pages: the step's total less the other reasons). Repeating it is harmless.
 */
export async function compactStep(tx: Tx, runId: number, stepId: string): Promise<void> {
  const sorted = [...(await entries(tx, runId, stepId)).values()].sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  if (sorted.length > 0) {
    const manifest = sorted.map(({ url, hash, statusCode, credits }) => ({ url, hash, statusCode, credits }));
    const hash = await putBlob(tx, Buffer.from(JSON.stringify(manifest)));
    await run(tx, "UPDATE step_runs SET manifest = $1, documents = $2 WHERE run_id = $3 AND step_id = $4", [hash, sorted.length, runId, stepId]);
  }
  const journal = (await value<number>(tx, "SELECT COALESCE(SUM(credits_used), 0)::int FROM documents WHERE run_id = $1 AND step_id = $2", [runId, stepId])) ?? 0;
  if (journal !== 0) {
    await run(tx, "UPDATE step_runs SET credits_used = credits_used + $1 WHERE run_id = $2 AND step_id = $3", [journal, runId, stepId]);
    await run(tx, "UPDATE runs SET credits_used = credits_used + $1 WHERE id = $2", [journal, runId]);
  }
  await run(tx, "DELETE FROM documents WHERE run_id = $1 AND step_id = $2", [runId, stepId]);
  await compactChanges(tx, runId, stepId, sorted.map((e) => e.url));
  const sums = await rows(tx, "SELECT reason, SUM(credits)::int AS credits FROM credit_ledger WHERE run_id = $1 AND step_id = $2 AND reason <> 'page' GROUP BY reason", [runId, stepId]);
  const total = await value<number>(tx, "SELECT credits_used FROM step_runs WHERE run_id = $1 AND step_id = $2", [runId, stepId]);
  const pages = (total ?? 0) - sums.reduce((sum, r) => sum + (r.credits as number), 0);
  if (pages !== 0) sums.push({ reason: "page", credits: pages });
  await run(tx, "DELETE FROM credit_ledger WHERE run_id = $1 AND step_id = $2", [runId, stepId]);
  for (const sum of sums) await run(tx, "INSERT INTO credit_ledger (run_id, step_id, url, credits, reason, at) VALUES ($1, $2, NULL, $3, $4, $5)", [runId, stepId, sum.credits, sum.reason, tx.now]);
}

/** Keeps the most common change result once, on the step, and a row only for pages that differ from it. */
async function compactChanges(tx: Tx, runId: number, stepId: string, urls: string[]): Promise<void> {
  const { base, changes } = await changesOf(tx, runId, stepId);
  if (base === undefined && changes.size === 0) return;
  const effective = urls.flatMap((url) => {
    const change = changes.get(url) ?? base;
    return change === undefined ? [] : [[url, change] as const];
  });
  const common = mostCommon(effective.map(([, change]) => change));
  await run(tx, "DELETE FROM page_changes WHERE run_id = $1 AND step_id = $2", [runId, stepId]);
  for (const [url, change] of effective) {
    if (change !== common) await run(tx, "INSERT INTO page_changes (run_id, step_id, url, change) VALUES ($1, $2, $3, $4)", [runId, stepId, url, change]);
  }
  await run(tx, "UPDATE step_runs SET change_base = $1 WHERE run_id = $2 AND step_id = $3", [common ?? null, runId, stepId]);
}

export async function changesOf(tx: Tx, runId: number, stepId: string): Promise<{ base: string | undefined; changes: Map<string, string> }> {
  const base = (await value<string | null>(tx, "SELECT change_base FROM step_runs WHERE run_id = $1 AND step_id = $2", [runId, stepId])) ?? undefined;
  const found = await rows(tx, "SELECT url, change FROM page_changes WHERE run_id = $1 AND step_id = $2", [runId, stepId]);
  return { base, changes: new Map(found.map((r) => [r.url as string, r.change as string])) };
}

export async function changeTrackingOf(tx: Tx, change: string | undefined): Promise<ChangeTrackingResult | undefined> {
  if (change === undefined) return undefined;
  const diffs = new Map<string, string>();
  const stored = JSON.parse(change) as { diff?: string };
  if (stored.diff !== undefined) diffs.set(stored.diff, await getText(tx, stored.diff));
  return readChange(change, (hash) => diffs.get(hash)!);
}

export async function pageChanges(tx: Tx, runId: number): Promise<Array<{ stepId: string; url: string; change: ChangeTrackingResult }>> {
  const out: Array<{ stepId: string; url: string; change: ChangeTrackingResult }> = [];
  for (const stepId of await column<string>(tx, "SELECT step_id FROM step_runs WHERE run_id = $1 ORDER BY seq", [runId])) {
    const { base, changes } = await changesOf(tx, runId, stepId);
    if (base === undefined && changes.size === 0) continue;
    for (const url of (await entries(tx, runId, stepId)).keys()) {
      const change = await changeTrackingOf(tx, changes.get(url) ?? base);
      if (change) out.push({ stepId, url, change });
    }
  }
  return out;
}

/** A step's pages as a list to read one by one: each with its change result (as stored), or only those of `only`. */
export async function pageList(tx: Tx, runId: number, stepId: string, only?: readonly string[]): Promise<Array<PageEntry & { change?: string }>> {
  const wanted = only ? new Set(only) : undefined;
  const { base, changes } = await changesOf(tx, runId, stepId);
  const out: Array<PageEntry & { change?: string }> = [];
  for (const entry of (await entries(tx, runId, stepId)).values()) {
    if (wanted && !wanted.has(entry.url)) continue;
    const change = changes.get(entry.url) ?? base;
    out.push(change === undefined ? entry : { ...entry, change });
  }
  return out;
}

/** A page's stored document, its change result put back. */
export async function readPage(tx: Tx, hash: string, change: string | undefined): Promise<Document> {
  const document = JSON.parse(await getText(tx, hash)) as Document;
  const changeTracking = await changeTrackingOf(tx, change);
  if (changeTracking) document.changeTracking = changeTracking;
  return document;
}
