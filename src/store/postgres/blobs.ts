import { blobHash, compress, decompress } from "../blob-codec.js";
import { run, row, value, type Tx } from "./sql.js";

/**
 * Stores a blob once, by content (sha256 of the uncompressed bytes, as in SQLite), compressed
 * with brotli (at `quality`, or the default) unless told not to; returns its hash. Two processes storing the same blob at once
 * both succeed.
 */
export async function putBlob(tx: Tx, bytes: Buffer, compression: "br" | "none" = "br", quality?: number): Promise<string> {
  const hash = blobHash(bytes);
  if (await hasBlob(tx, hash)) return hash;
  await run(tx, "INSERT INTO blobs (hash, size, compression, data) VALUES ($1, $2, $3, $4) ON CONFLICT (hash) DO NOTHING", [hash, bytes.length, compression, compression === "br" ? compress(bytes, quality) : bytes]);
  return hash;
}

export async function hasBlob(tx: Tx, hash: string): Promise<boolean> {
  return (await value(tx, "SELECT 1 FROM blobs WHERE hash = $1", [hash])) !== undefined;
}

/** A blob's bytes, uncompressed; a missing blob is an error (a row refers to it). */
export async function getBlob(tx: Tx, hash: string): Promise<Buffer> {
  const found = await row(tx, "SELECT data, compression FROM blobs WHERE hash = $1", [hash]);
  if (!found) throw new Error(`blob ${hash} is missing from the database`);
  return decompress(found.data as Buffer, found.compression as string);
}

export async function getText(tx: Tx, hash: string): Promise<string> {
  return (await getBlob(tx, hash)).toString("utf8");
}
