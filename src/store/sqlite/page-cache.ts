import type Database from "better-sqlite3";
import type { Document } from "../../core/index.js";
import { getBlob, putBlob } from "./blobs.js";
import { decodeEntryLinks, encodeEntryLinks, sameFields } from "../cache-entry.js";

/** A cached page of `url` made with the same options no longer ago than `maxAgeMs` (before `nowMs`). */
export function readCacheEntry(db: Database.Database, url: string, optionsKey: string, maxAgeMs: number, nowMs: number): { document: Document; cachedAt: string } | undefined {
  const row = db.prepare("SELECT blob_hash, links_blob, fetched_at FROM page_cache WHERE url = ? AND options_key = ?").get(url, optionsKey) as
    | { blob_hash: string; links_blob: string | null; fetched_at: string }
    | undefined;
  if (!row) return undefined;
  const cachedAt = row.fetched_at;
  if (nowMs - Date.parse(cachedAt) > maxAgeMs) return undefined;
  const document = JSON.parse(getBlob(db, row.blob_hash).toString("utf8")) as Document;
  if (row.links_blob) Object.assign(document, decodeEntryLinks(getBlob(db, row.links_blob).toString("utf8")));
  return { document, cachedAt };
}

/** Whether the cache holds any entry made with these options (an index lookup). */
export function cacheHoldsKey(db: Database.Database, optionsKey: string): boolean {
  return db.prepare("SELECT 1 FROM page_cache WHERE options_key = ? LIMIT 1").get(optionsKey) !== undefined;
}

/**
 * Writes a cache entry: the document without its links, and the links apart (the links format and
 * the page's links a crawl followed). A crawl stores its pages without the links it followed, so
 * the entry then shares the stored page's blob (compared field by field or as JSON; `stored` is
 * the page written in the same transaction) and adds only the links.
 */
export function writeCacheEntry(
  db: Database.Database,
  entry: { url: string; optionsKey: string; document: Document; fetchedAt: string },
  stored?: { document: Document; json: string; hash: string },
): void {
  const document = entry.document;
  let hash: string;
  let linksHash: string | null = null;
  if (stored && document === stored.document && document.changeTracking === undefined) {
    hash = stored.hash;
  } else {
    const { links, pageLinks, ...rest } = document;
    // The stored page may hold the links format itself: then the entry's links are read from the list kept apart all the same.
    if (stored && sameFields(rest, stored.document)) hash = stored.hash;
    else {
      const json = JSON.stringify(rest);
      hash = stored && stored.json === json ? stored.hash : putBlob(db, Buffer.from(json));
    }
    const apart = encodeEntryLinks({ ...(links ? { links } : {}), ...(pageLinks ? { pageLinks } : {}) });
    if (apart !== undefined) linksHash = putBlob(db, Buffer.from(apart));
  }
  db.prepare(
    `INSERT INTO page_cache (url, options_key, blob_hash, links_blob, fetched_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (url, options_key) DO UPDATE SET blob_hash = excluded.blob_hash, links_blob = excluded.links_blob, fetched_at = excluded.fetched_at`,
  ).run(entry.url, entry.optionsKey, hash, linksHash, entry.fetchedAt);
}
