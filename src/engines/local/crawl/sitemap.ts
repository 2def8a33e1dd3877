import { promisify } from "node:util";
import zlib from "node:zlib";
import { isScrapelineError, ScrapelineError } from "../../../core/index.js";
import { decodeText, requestHeaders, type FetchGate } from "../fetch/index.js";
import type { Robots } from "./robots.js";
import { scanSitemap } from "./sitemap-scan.js";

const gunzip = promisify(zlib.gunzip);

/** At most this many sitemap files are fetched per call, indexes included. */
export const DEFAULT_MAX_SITEMAPS = 50;
/** Cap on the decoded size of one sitemap file (the protocol's own limit). */
export const DEFAULT_MAX_SITEMAP_BYTES = 50 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 30_000;

/** Bounds and request settings for `readSitemaps`. */
export interface SitemapOptions {
  /** Stop once this many distinct page URLs are collected. */
  maxUrls: number;
  /** Files fetched at most, indexes included; bounds an index of indexes. */
  maxSitemaps?: number;
  /** Decoded bytes per file, after gzip. */
  maxBytes?: number;
  /** Per file. */
  timeoutMs?: number;
  headers?: Record<string, string>;
  skipTlsVerification?: boolean;
  signal?: AbortSignal;
}

/** A sitemap file that could not be read, and why. */
export interface SitemapFailure {
  url: string;
  reason: string;
  status?: number;
}

/** What `readSitemaps` found. */
export interface SitemapResult {
  /** Page URLs in the order met, deduplicated, at most `maxUrls`; other hosts included. */
  urls: string[];
  /** The sitemap files read successfully, in the order read. */
  sitemaps: string[];
  failed: SitemapFailure[];
  /** True when a bound (maxUrls or maxSitemaps) stopped the reading early. */
  truncated: boolean;
}

/**
 * Reads sitemaps through the gate, starting from `urls`: `<urlset>` files give pages,
 * `<sitemapindex>` files are followed depth-first in document order. Each file is fetched once,
 * at most `maxSitemaps` in all, so an index of indexes ends at the bound; gzip (by magic bytes,
 * whatever the name) is inflated with a decoded-size cap. A file that fails is recorded in
 * `failed` and skipped. Only cancellation is thrown.
 */
export async function readSitemaps(gate: FetchGate, urls: string[], options: SitemapOptions): Promise<SitemapResult> {
  const maxSitemaps = options.maxSitemaps ?? DEFAULT_MAX_SITEMAPS;
  const result: SitemapResult = { urls: [], sitemaps: [], failed: [], truncated: false };
  const pages = new Set<string>();
  const queued = new Set<string>();
  const stack: string[] = [];
  for (const url of urls) {
    if (!queued.has(url)) {
      queued.add(url);
      stack.push(url);
    }
  }
  stack.reverse();
  let fetched = 0;
  while (stack.length > 0) {
    if (pages.size >= options.maxUrls || fetched >= maxSitemaps) {
      result.truncated = true;
      break;
    }
    const url = stack.pop() as string;
    fetched++;
    let text: string;
    try {
      text = await fetchSitemap(gate, url, options);
    } catch (error) {
      if (isScrapelineError(error, "cancelled")) throw error;
      const failure: SitemapFailure = { url, reason: error instanceof Error ? error.message : String(error) };
      if (isScrapelineError(error) && error.status !== undefined) failure.status = error.status;
      result.failed.push(failure);
      continue;
    }
    result.sitemaps.push(url);
    const children: string[] = [];
    scanSitemap(text, (loc, isSitemap) => {
      if (!isHttpUrl(loc)) return true;
      if (isSitemap) {
        // Never hold more children than could still be fetched.
        if (queued.has(loc)) return true;
        if (fetched + stack.length + children.length >= maxSitemaps) {
          result.truncated = true;
          return false;
        }
        queued.add(loc);
        children.push(loc);
        return true;
      }
      if (pages.size >= options.maxUrls) {
        result.truncated = true;
        return false;
      }
      pages.add(loc);
      return true;
    });
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as string);
  }
  result.urls = [...pages];
  return result;
}

/** Where a site's sitemaps are looked for: the `Sitemap:` lines of robots.txt, then `/sitemap.xml`. */
export function sitemapSources(origin: string, robots: Pick<Robots, "sitemaps">): string[] {
  const guess = `${new URL(origin).origin}/sitemap.xml`;
  return robots.sitemaps.includes(guess) ? [...robots.sitemaps] : [...robots.sitemaps, guess];
}

/**
 * Warnings worth showing for a sitemap read: every failure except a missing `/sitemap.xml`
 * (a guess, not a promise), and a read stopped by its bounds.
 */
export function sitemapWarnings(origin: string, result: SitemapResult): string[] {
  const guess = `${new URL(origin).origin}/sitemap.xml`;
  const warnings = result.failed
    .filter((f) => !(f.url === guess && f.status !== undefined && f.status >= 400 && f.status < 500))
    .map((f) => `sitemap ${f.url} skipped: ${f.reason}`);
  if (result.truncated) warnings.push(`sitemaps read only in part: stopped at ${result.sitemaps.length} files and ${result.urls.length} URLs`);
  return warnings;
}

/** One sitemap file as text: fetched, un-gzipped when it is gzip, decoded. */
async function fetchSitemap(gate: FetchGate, url: string, options: SitemapOptions): Promise<string> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_SITEMAP_BYTES;
  const response = await gate.fetch({
    url,
    headers: { ...requestHeaders({ mobile: false, ...(options.headers ? { headers: options.headers } : {}) }), Accept: "application/xml,text/xml,text/plain;q=0.9,*/*;q=0.5" },
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxBodyBytes: maxBytes,
    ...(options.skipTlsVerification ? { skipTlsVerification: true } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (response.status < 200 || response.status >= 300) {
    throw new ScrapelineError("http-status", `HTTP ${response.status} from ${url}`, { url, status: response.status });
  }
  let body = response.body;
  let contentType = response.headers["content-type"];
  if (body[0] === 0x1f && body[1] === 0x8b) {
    body = await inflate(body, url, maxBytes);
    contentType = undefined;
  }
  return decodeText(body, contentType);
}

async function inflate(body: Buffer, url: string, maxBytes: number): Promise<Buffer> {
  try {
    return await gunzip(body, { maxOutputLength: maxBytes, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  } catch (cause) {
    if ((cause as { code?: unknown }).code === "ERR_BUFFER_TOO_LARGE" || cause instanceof RangeError) {
      throw new ScrapelineError("too-large", `${url} inflates to more than ${maxBytes} bytes`, { url, cause });
    }
    throw new ScrapelineError("bad-content", `${url} is not valid gzip: ${(cause as Error).message}`, { url, cause });
  }
}

function isHttpUrl(text: string): boolean {
  if (!/^https?:\/\//i.test(text)) return false;
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}
