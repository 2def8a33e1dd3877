import type { FetchGate, FetchRequest } from "../local/index.js";
import type { EngineTaps, RenderedPage } from "../local/index.js";
import { isScrapelineError, ScrapelineError, type ErrorKind } from "../../core/index.js";
import { requestKey, safeUrl } from "./request-keys.js";

/** A response of the fetch gate as a run keeps it: the decoded body, and what converting it needs. */
export interface KeptResponse {
  url: string;
  status: number;
  headers: Record<string, string>;
  redirects: string[];
  body: Buffer;
}

/** A request that failed, kept so that a run made from it fails the same way. */
export interface KeptFailure {
  error: { kind: string; message: string; status?: number };
}

export type KeptAnswer = KeptResponse | KeptFailure;

/** Where a run's fetched pages go as they come (the store, wired by the app). */
export interface FetchedPageSink {
  keep(key: string, answer: KeptAnswer): void;
}

/** The pages an earlier run fetched, by request key. */
export interface FetchedPageSource {
  /** How the source is named in messages ("run 3"). */
  readonly name: string;
  find(key: string): KeptAnswer | undefined;
}

/**
 * Response headers a run does not keep: credentials and cookies, the clock, and what describes the
 * transfer rather than the page (the body is kept decoded). The rest stays: block-page detection
 * reads vendors' headers.
 */
const UNKEPT_HEADERS = new Set([
  "set-cookie",
  "set-cookie2",
  "cookie",
  "authorization",
  "proxy-authorization",
  "www-authenticate",
  "proxy-authenticate",
  "date",
  "age",
  "expires",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-encoding",
  "content-length",
]);

export function keptHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !UNKEPT_HEADERS.has(name.toLowerCase())));
}

/** The key a page is kept under: method and URL (credentials taken out), and the hash of a body sent. */
function keyOf(request: FetchRequest): string {
  return requestKey(request.method ?? "GET", request.url, request.body);
}

/** The key a page the browser loaded is kept under: its HTML is what the browser left, not what the site sent. */
function browserKey(url: string): string {
  return `BROWSER ${safeUrl(url)}`;
}

/** Hands each page the browser loaded to `sink`: its final HTML as the body, its status, final URL and headers. */
export function keepingBrowser(sink: FetchedPageSink): (url: string, page: RenderedPage) => void {
  return (url, page) => sink.keep(browserKey(url), { url: safeUrl(page.url), status: page.status, headers: keptHeaders(page.headers), redirects: [], body: Buffer.from(page.html, "utf8") });
}

/**
 * A gate that hands every answer it gets to `sink` (a failure too, unless a user's stop caused it):
 * pages, robots.txt and sitemaps, with their status, final URL, redirects and headers.
 */
export function keepingGate(sink: FetchedPageSink): (inner: FetchGate) => FetchGate {
  return (inner) => ({
    fetch: async (request) => {
      try {
        const response = await inner.fetch(request);
        sink.keep(keyOf(request), { url: safeUrl(response.url), status: response.status, headers: keptHeaders(response.headers), redirects: response.redirects.map(safeUrl), body: response.body });
        return response;
      } catch (error) {
        if (isScrapelineError(error) && error.kind !== "cancelled") sink.keep(keyOf(request), { error: { kind: error.kind, message: error.message, ...(error.status !== undefined ? { status: error.status } : {}) } });
        throw error;
      }
    },
    close: () => inner.close(),
  });
}

/**
 * Taps that answer the fetch gate from the pages an earlier run kept, with no socket, and pages
 * that need the browser from the HTML it rendered then, with no browser: a page it never loaded
 * fails with `not-stored` and its URL, or, with `fetchMissing`, is fetched (or loaded) for real,
 * its policy unchanged. A live browser page (a session's login, an interact step) cannot be
 * answered. `keep` also hands every answer to a sink: the new run keeps its pages, as any run does.
 */
export function storedPagesTaps(source: FetchedPageSource, options: { fetchMissing: boolean; keep?: FetchedPageSink }): EngineTaps {
  const answering = (inner: FetchGate): FetchGate => ({
    fetch: async (request) => {
      request.signal?.throwIfAborted();
      const found = source.find(keyOf(request));
      if (!found) {
        if (options.fetchMissing) return inner.fetch(request);
        throw new ScrapelineError("not-stored", `not-stored: ${request.url} was not fetched by ${source.name}`, { url: request.url });
      }
      if ("error" in found) throw new ScrapelineError(found.error.kind as ErrorKind, found.error.message, { url: request.url, ...(found.error.status !== undefined ? { status: found.error.status } : {}) });
      // Credentials were taken out of the kept URLs: where the page ended where it was asked, it is the URL asked.
      const asked = (url: string) => (url === safeUrl(request.url) ? request.url : url);
      return { url: asked(found.url), status: found.status, headers: { ...found.headers }, redirects: found.redirects.map(asked), body: found.body };
    },
    close: () => inner.close(),
  });
  const keepBrowser = options.keep ? keepingBrowser(options.keep) : undefined;
  const storedBrowserPage = (url: string): RenderedPage | undefined => {
    const found = source.find(browserKey(url));
    if (!found) {
      if (options.fetchMissing) return undefined;
      throw new ScrapelineError("not-stored", `not-stored: ${url} was not loaded in the browser by ${source.name}`, { url });
    }
    if ("error" in found) throw new ScrapelineError(found.error.kind as ErrorKind, found.error.message, { url });
    const page = { url: found.url === safeUrl(url) ? url : found.url, status: found.status, headers: { ...found.headers }, html: found.body.toString("utf8") };
    keepBrowser?.(url, page);
    return page;
  };
  const keeping = options.keep ? keepingGate(options.keep) : undefined;
  return {
    gate: (inner) => (keeping ? keeping(answering(inner)) : answering(inner)),
    storedBrowserPage,
    ...(keepBrowser ? { keepBrowserPage: keepBrowser } : {}),
    ...(options.fetchMissing ? {} : { refuseBrowser: (url: string) => new ScrapelineError("not-stored", `not-stored: ${url} needs a live browser page (a login or an interact step), which ${source.name} cannot answer`, { url }) }),
  };
}
