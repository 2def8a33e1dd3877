import { isScrapelineError } from "../../../core/index.js";
import { contentKind } from "../content.js";
import { decodeText, requestHeaders, type FetchGate } from "../fetch/index.js";
import { scanPage, type PageHead } from "./html-scan.js";

/** How long one page of a map's walk may take. */
export const WALK_PAGE_TIMEOUT_MS = 15_000;
/** A page bigger than this is not read (its Content-Length says so before any body is read). */
export const WALK_PAGE_MAX_BYTES = 5 * 1024 * 1024;
/** Pages of one map fetched at once. */
export const WALK_CONCURRENCY = 4;

/** Paths whose extension says they are not pages: listed when found, never fetched. */
const NOT_HTML = /\.(?:pdf|zip|gz|tgz|bz2|xz|7z|rar|tar|jpe?g|png|gif|webp|avif|svg|ico|bmp|tiff?|mp[34]|m4[av]|webm|mov|avi|mkv|ogg|wav|flac|woff2?|ttf|otf|eot|css|js|mjs|json|xml|rss|atom|txt|csv|xlsx?|docx?|pptx?|odt|ods|exe|dmg|msi|apk|iso|bin)$/i;

/** What the walk asks of the map it works for. */
export interface WalkHooks {
  /** Whether a page may be fetched (on the site, allowed by its origin's robots.txt). */
  mayVisit(url: string): Promise<boolean>;
  /**
   * Takes the links of a page read (and the page's own final URL and head); returns those
   * newly found that are worth reading in turn.
   */
  found(page: { url: string; head: PageHead; links: string[] }): string[];
  /** True once enough URLs are known: the walk reads no more pages. */
  full(): boolean;
}

export interface WalkSettings {
  headers?: Record<string, string>;
  skipTlsVerification?: boolean;
  /** Stops the walk: pages in flight are abandoned. */
  signal?: AbortSignal;
  concurrency?: number;
  /** Wait between two pages (robots.txt Crawl-delay); reads one page at a time when set. */
  delayMs?: number;
  /** Pages already read (the start page): not read again. */
  visited?: readonly string[];
}

/** How the walk went. */
export interface WalkReport {
  /** HTML pages read. */
  pages: number;
  /** Pages that could not be read (network errors, HTTP errors), skipped. */
  failed: number;
  /** Pages left unread because the walk was stopped (by its signal or by `full`). */
  unread: number;
}

/**
 * Breadth-first walk of a site's links from `seeds`: each page is fetched through the gate
 * (its SSRF policy applies), only HTML is read, and only its links and head are taken (no
 * conversion, nothing stored). At most `concurrency` pages are in flight. A page that fails is
 * skipped; the walk itself never throws, it stops when the queue is empty, `full()` holds or
 * the signal fires.
 */
export async function walkSite(gate: FetchGate, seeds: readonly string[], hooks: WalkHooks, settings: WalkSettings = {}): Promise<WalkReport> {
  const delayMs = settings.delayMs ?? 0;
  const concurrency = delayMs > 0 ? 1 : Math.max(1, settings.concurrency ?? WALK_CONCURRENCY);
  const headers = { ...requestHeaders({ mobile: false, ...(settings.headers ? { headers: settings.headers } : {}) }), Accept: "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1" };
  const queue: string[] = [];
  const queued = new Set<string>(settings.visited);
  const enqueue = (url: string): void => {
    if (queued.has(url) || NOT_HTML.test(new URL(url).pathname)) return;
    queued.add(url);
    queue.push(url);
  };
  seeds.forEach(enqueue);
  const report: WalkReport = { pages: 0, failed: 0, unread: 0 };
  let next = 0;
  let active = 0;
  let lastStart = 0;
  const stopped = (): boolean => settings.signal?.aborted === true || hooks.full();

  const visit = async (url: string): Promise<void> => {
    if (!(await hooks.mayVisit(url))) return;
    if (delayMs > 0 && lastStart > 0) await sleep(lastStart + delayMs - Date.now(), settings.signal);
    if (stopped()) return;
    lastStart = Date.now();
    let response;
    try {
      response = await gate.fetch({
        url,
        headers,
        timeoutMs: WALK_PAGE_TIMEOUT_MS,
        maxBodyBytes: WALK_PAGE_MAX_BYTES,
        ...(settings.skipTlsVerification ? { skipTlsVerification: true } : {}),
        ...(settings.signal ? { signal: settings.signal } : {}),
      });
    } catch (error) {
      if (!isScrapelineError(error, "cancelled")) report.failed++;
      return;
    }
    if (response.status < 200 || response.status >= 300) {
      report.failed++;
      return;
    }
    const type = response.headers["content-type"];
    if (contentKind(type, response.body) !== "html") return;
    if (response.url !== url && !(await hooks.mayVisit(response.url))) return;
    report.pages++;
    const page = scanPage(decodeText(response.body, type), response.url);
    for (const link of hooks.found({ url: response.url, head: page.head, links: page.links })) enqueue(link);
  };

  await new Promise<void>((resolve) => {
    const pump = (): void => {
      while (active < concurrency && next < queue.length && !stopped()) {
        const url = queue[next++]!;
        active++;
        void visit(url)
          .catch(() => void report.failed++)
          .finally(() => {
            active--;
            pump();
          });
      }
      if (active === 0 && (next >= queue.length || stopped())) resolve();
    };
    pump();
  });
  report.unread = queue.length - next;
  return report;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0 || signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
