import { createHash } from "node:crypto";
import type { Document, ScrapeOptions } from "../core/index.js";
import type { RunContext } from "./context.js";

/**
 * When the page cache may answer (API-NOTES.md §1.1): maxAge above 0, no headers, no actions,
 * no waitFor and no change tracking — anything else must see the live page.
 */
export function mayReadCache(options: ScrapeOptions): boolean {
  return options.maxAge > 0 && !hasEntries(options.headers) && !options.actions?.length && options.waitFor === 0 && !options.formats.some((f) => f.type === "changeTracking");
}

/** Pages fetched with the request's own headers (cookies, a session) or changed by actions are never stored. */
export function mayWriteCache(options: ScrapeOptions): boolean {
  return options.storeInCache && !hasEntries(options.headers) && !options.actions?.length && !options.formats.some((f) => f.type === "changeTracking");
}

function hasEntries(headers: Record<string, string> | undefined): boolean {
  return headers !== undefined && Object.keys(headers).length > 0;
}

/** Keys already worked out, by options object: a step asks with the same options for every page. */
const keys = new WeakMap<ScrapeOptions, string>();

/**
 * The options that change what was fetched, how it was trusted, or what it converts to; a cached
 * page answers only the same set. TLS verification is part of it: a page fetched without
 * verification must never answer a request that verifies. Headers and actions are not: they
 * keep a page out of the cache entirely (mayReadCache, mayWriteCache).
 */
export function cacheKey(options: ScrapeOptions): string {
  let key = keys.get(options);
  if (key === undefined) keys.set(options, (key = computeKey(options)));
  return key;
}

function computeKey(options: ScrapeOptions): string {
  const relevant = {
    formats: options.formats,
    onlyMainContent: options.onlyMainContent,
    includeTags: options.includeTags ?? [],
    excludeTags: options.excludeTags ?? [],
    skipTlsVerification: options.skipTlsVerification,
    waitFor: options.waitFor,
    mobile: options.mobile,
    location: options.location,
    blockAds: options.blockAds,
    removeBase64Images: options.removeBase64Images,
    parsers: options.parsers,
    proxy: options.proxy,
  };
  return createHash("sha256").update(JSON.stringify(relevant)).digest("hex").slice(0, 32);
}

/** A cached document, marked as such (cacheState hit, cachedAt). */
export function fromCache(document: Document, cachedAt: string): Document {
  return { ...document, metadata: { ...document.metadata, cacheState: "hit", cachedAt } };
}

/** Whether the page cache may hold `url` made with this key (see RunContext.cacheHolds). */
export function cacheMayHold(ctx: RunContext, key: string, url: string): boolean {
  let holds = ctx.cacheHolds.get(key);
  if (holds === undefined) {
    holds = ctx.ports.store.cacheHolds(key) ? true : new Set<string>();
    ctx.cacheHolds.set(key, holds);
  }
  return holds === true || holds.has(url);
}

/** Notes a page the run caches, when the run keeps a list of what it cached with that key. */
export function noteCached(ctx: RunContext, key: string, url: string): void {
  const holds = ctx.cacheHolds.get(key);
  if (holds !== undefined && holds !== true) holds.add(url);
}
