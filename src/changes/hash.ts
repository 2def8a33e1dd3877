/** Content hashing of normalized markdown: equal hashes mean "same". */
import { createHash } from "node:crypto";
import { normalize } from "./normalize.js";
import type { NormalizeOptions } from "./types.js";

/** The sha256 of a (normalized) text, lower-case hex. */
export function contentHash(normalized: string): string {
  return createHash("sha256").update(normalized, "utf8").digest("hex");
}

/** `contentHash(normalize(markdown, options))`: what a snapshot is compared and stored by. */
export function fingerprint(markdown: string, options?: NormalizeOptions): string {
  return contentHash(normalize(markdown, options));
}
