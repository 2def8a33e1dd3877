// The page cache (maxAge) on PostgreSQL, as ../sqlite/page-cache.ts keeps it in SQLite.
import type { Document } from "../../core/index.js";
import { decodeEntryLinks, encodeEntryLinks, sameFields } from "../cache-entry.js";
import { getText, putBlob } from "./blobs.js";
import { row, run, value, type Tx } from "./sql.js";

/** A cached page of `url` made with the same options no longer ago than `maxAgeMs` (before `nowMs`). */
export async function readCacheEntry(tx: Tx, url: string, optionsKey: string, maxAgeMs: number, nowMs: number): Promise<{ document: Document; cachedAt: string } | undefined> {
  const found = await row(tx, "SELECT blob_hash, links_blob, fetched_at FROM page_cache WHERE url = $1 AND options_key = $2", [url, optionsKey]);
  if (!found) return undefined;
  const cachedAt = found.fetched_at as string;
  if (nowMs - Date.parse(cachedAt) > maxAgeMs) return undefined;
  const document = JSON.parse(await getText(tx, found.blob_hash as string)) as Document;
  if (found.links_blob) Object.assign(document, decodeEntryLinks(await getText(tx, found.links_blob as string)));
  return { document, cachedAt };
}

export async function cacheHolds(tx: Tx, optionsKey: string): Promise<boolean> {
  return (await value(tx, "SELECT 1 FROM page_cache WHERE options_key = $1 LIMIT 1", [optionsKey])) !== undefined;
}

/** Writes a cache entry: the document without its links, and the links apart, sharing the stored page's blob when it can (see ../sqlite/page-cache.ts). */
export async function writeCacheEntry(
  tx: Tx,
  entry: { url: string; optionsKey: string; document: Document; fetchedAt: string },
  stored?: { document: Document; json: string; hash: string },
): Promise<void> {
  const document = entry.document;
  let hash: string;
  let linksHash: string | null = null;
  if (stored && document === stored.document && document.changeTracking === undefined) {
    hash = stored.hash;
  } else {
    const { links, pageLinks, ...rest } = document;
    if (stored && sameFields(rest, stored.document)) hash = stored.hash;
    else {
      const json = JSON.stringify(rest);
      hash = stored && stored.json === json ? stored.hash : await putBlob(tx, Buffer.from(json));
    }
    const apart = encodeEntryLinks({ ...(links ? { links } : {}), ...(pageLinks ? { pageLinks } : {}) });
    if (apart !== undefined) linksHash = await putBlob(tx, Buffer.from(apart));
  }
  await run(
    tx,
    `INSERT INTO page_cache (url, options_key, blob_hash, links_blob, fetched_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (url, options_key) DO UPDATE SET blob_hash = excluded.blob_hash, links_blob = excluded.links_blob, fetched_at = excluded.fetched_at`,
    [entry.url, entry.optionsKey, hash, linksHash, entry.fetchedAt],
  );
}
