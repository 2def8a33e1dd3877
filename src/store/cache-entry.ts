import type { CacheWrite, Document } from "../core/index.js";

/**
 * A page-cache entry as sent to the writer thread. A crawl's cache entry is the stored page plus
 * the links it followed; it goes as just those links, so the page's content is copied once.
 */
export type CacheMessage = CacheWrite | { optionsKey: string; storedWithLinks: string[] | undefined };

export function packCache(cache: CacheWrite, stored: Document): CacheMessage {
  if (cache.document === stored) return cache;
  const { links, ...rest } = cache.document;
  return sameFields(rest, stored) ? { optionsKey: cache.optionsKey, storedWithLinks: links } : cache;
}

export function unpackCache(message: CacheMessage, stored: Document): CacheWrite {
  if ("document" in message) return message;
  return { optionsKey: message.optionsKey, document: message.storedWithLinks === undefined ? { ...stored } : { ...stored, links: message.storedWithLinks } };
}

/** Whether `a` holds the very same values as `b` (a shallow copy of it, like a crawl's page without its links). */
export function sameFields(a: object, b: Document): boolean {
  if (b.changeTracking !== undefined) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) if ((a as Record<string, unknown>)[key] !== (b as unknown as Record<string, unknown>)[key]) return false;
  return true;
}
