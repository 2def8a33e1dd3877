import { createHash } from "node:crypto";
import { brotliCompressSync, brotliDecompressSync, constants } from "node:zlib";

/** Content address of a blob: sha256 of its uncompressed bytes. */
export function blobHash(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * Brotli at quality 2: on pages converted to markdown it is about three times as fast as quality 5
 * (0.15 ms against 0.42 ms for 18 KB of document) for blobs about 10 % larger, and a crawl stores a
 * page at a time on its one busy thread. Any quality reads back with the same decoder, so databases
 * written at another quality need nothing.
 */
export const BROTLI_QUALITY = 2;
/**
 * A 256 KB window (2^18) instead of the default 4 MB: the encoder allocates less for every blob
 * (peak memory of a crawl about 10 MB lower), the same size for pages, and 1 % larger for a
 * blob of several MB.
 */
export const BROTLI_WINDOW_BITS = 18;

export function compress(bytes: Buffer): Buffer {
  return brotliCompressSync(bytes, {
    params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_LGWIN]: BROTLI_WINDOW_BITS, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
  });
}

export function decompress(bytes: Buffer, compression: string): Buffer {
  if (compression === "br") return brotliDecompressSync(bytes);
  if (compression === "none") return bytes;
  throw new Error(`unknown blob compression ${compression}`);
}
