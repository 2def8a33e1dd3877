import { createHash } from "node:crypto";
import { brotliCompressSync, brotliDecompressSync, constants } from "node:zlib";

/** Content address of a blob: sha256 of its uncompressed bytes. */
export function blobHash(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Brotli at a middle quality: pages compress well and writing stays fast. */
export function compress(bytes: Buffer): Buffer {
  return brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
}

export function decompress(bytes: Buffer, compression: string): Buffer {
  if (compression === "br") return brotliDecompressSync(bytes);
  if (compression === "none") return bytes;
  throw new Error(`unknown blob compression ${compression}`);
}
