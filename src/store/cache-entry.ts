import type { CacheWrite, Document } from "../core/index.js";

/** The link lists of a cache entry, kept apart from the page (a crawl's entry is its stored page plus these). */
export interface EntryLinks {
  links?: string[];
  pageLinks?: string[];
}

/**
 * A page-cache entry as sent to the writer thread. A crawl's cache entry is the stored page plus
 * the links it followed (`pageLinks`); it goes as just its links, so the page's content is copied once.
 */
export type CacheMessage = CacheWrite | { optionsKey: string; entryLinks: EntryLinks };

export function packCache(cache: CacheWrite, stored: Document): CacheMessage {
  if (cache.document === stored) return cache;
  const { links, pageLinks, ...rest } = cache.document;
  if (!sameFields(rest, stored)) return cache;
  return { optionsKey: cache.optionsKey, entryLinks: { ...(links ? { links } : {}), ...(pageLinks ? { pageLinks } : {}) } };
}

export function unpackCache(message: CacheMessage, stored: Document): CacheWrite {
  if ("document" in message) return message;
  return { optionsKey: message.optionsKey, document: { ...stored, ...message.entryLinks } };
}

/**
 * Whether `a` holds the very same values as `b` (a shallow copy of it, like a crawl's page without
 * the links it followed), the link lists of either side left out.
 */
export function sameFields(a: object, b: Document): boolean {
  if (b.changeTracking !== undefined) return false;
  const keys = Object.keys(a).filter(notLinks);
  if (keys.length !== Object.keys(b).filter(notLinks).length) return false;
  for (const key of keys) if ((a as Record<string, unknown>)[key] !== (b as unknown as Record<string, unknown>)[key]) return false;
  return true;
}

const notLinks = (key: string) => key !== "links" && key !== "pageLinks";

/** A cache entry's links as kept apart: a plain list is the `links` format (as entries were first written). */
export function encodeEntryLinks(entry: EntryLinks): string | undefined {
  if (entry.pageLinks === undefined) return entry.links === undefined ? undefined : JSON.stringify(entry.links);
  return JSON.stringify(entry);
}

export function decodeEntryLinks(json: string): EntryLinks {
  const value = JSON.parse(json) as string[] | EntryLinks;
  return Array.isArray(value) ? { links: value } : value;
}
