import type Database from "better-sqlite3";
import { BROTLI_QUALITY, blobHash, compress, decompress } from "../blob-codec.js";

export { BROTLI_QUALITY, BROTLI_WINDOW_BITS, blobHash, compress, decompress } from "../blob-codec.js";

/**
 * Stores a blob once, by content; returns its hash. Stored content is not compressed again: most
 * blobs of a repeated run already exist. `quality` is brotli's for content worth packing harder.
 */
export function putBlob(db: Database.Database, bytes: Buffer, compression: "br" | "none" = "br", quality = BROTLI_QUALITY): string {
  const hash = blobHash(bytes);
  if (hasBlob(db, hash)) return hash;
  db.prepare("INSERT OR IGNORE INTO blobs (hash, size, compression, data) VALUES (?, ?, ?, ?)").run(hash, bytes.length, compression, compression === "br" ? compress(bytes, quality) : bytes);
  return hash;
}

export function hasBlob(db: Database.Database, hash: string): boolean {
  return db.prepare("SELECT 1 FROM blobs WHERE hash = ?").get(hash) !== undefined;
}

/** A blob's bytes, uncompressed; a missing blob is an error (a row refers to it). */
export function getBlob(db: Database.Database, hash: string): Buffer {
  const row = db.prepare("SELECT data, compression FROM blobs WHERE hash = ?").get(hash) as { data: Buffer; compression: string } | undefined;
  if (!row) throw new Error(`blob ${hash} is missing from the database`);
  return decompress(row.data, row.compression);
}
