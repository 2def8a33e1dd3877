import type { IncomingMessage, ServerResponse } from "node:http";
import type { CrawlRequest, MapRequest, ScrapeOptions } from "../../../src/core/index.js";
import { createFetchGate, decodeText, type FetchGate } from "../../../src/engines/local/fetch/index.js";
import { scanLinks, type CrawlFrontier } from "../../../src/engines/local/crawl/index.js";
import { startHttpServer, type TestServer } from "../fetch/servers.js";

/** Scrape options with every default applied, as the loader gives them. */
export const SCRAPE_DEFAULTS: ScrapeOptions = {
  formats: [{ type: "markdown" }],
  onlyMainContent: true,
  maxAge: 0,
  waitFor: 0,
  mobile: false,
  skipTlsVerification: false,
  timeout: 30_000,
  parsers: [{ type: "pdf" }],
  location: { country: "US" },
  removeBase64Images: true,
  blockAds: true,
  proxy: "auto",
  storeInCache: true,
};

/** A normalized crawl request: the defaults of the v2 API plus `overrides`. */
export function crawlRequest(url: string, overrides: Partial<CrawlRequest> = {}): CrawlRequest {
  return {
    url,
    includePaths: [],
    excludePaths: [],
    regexOnFullURL: false,
    sitemap: "include",
    crawlEntireDomain: false,
    allowSubdomains: false,
    allowExternalLinks: false,
    ignoreQueryParameters: false,
    deduplicateSimilarURLs: true,
    limit: 10_000,
    scrapeOptions: SCRAPE_DEFAULTS,
    ...overrides,
  };
}

/** A normalized map request: the defaults of the v2 API plus `overrides`. */
export function mapRequest(url: string, overrides: Partial<MapRequest> = {}): MapRequest {
  return { url, sitemap: "include", includeSubdomains: true, ignoreQueryParameters: true, limit: 5000, ...overrides };
}

/** A request as the site sees it: the Host name (no port), path and parsed URL. */
export interface SiteRequest {
  host: string;
  path: string;
  url: URL;
  req: IncomingMessage;
}

export type SiteHandler = (request: SiteRequest, res: ServerResponse) => unknown;

/**
 * One loopback server playing any number of `*.test` hosts (told apart by the Host header),
 * with a gate whose resolver sends every `.test` name to it. Records each request as
 * `host/path?query`.
 */
export interface Site {
  server: TestServer;
  gate: FetchGate;
  /** `host/path?query` of every request, in order. */
  requests: string[];
  url(path?: string, host?: string): string;
  close(): Promise<void>;
}

export async function startSite(handler: SiteHandler): Promise<Site> {
  const requests: string[] = [];
  const server = await startHttpServer((req, res) => {
    const host = (req.headers.host ?? "").replace(/:\d+$/, "");
    const url = new URL(req.url ?? "/", `http://${host}`);
    requests.push(`${host}${url.pathname}${url.search}`);
    void Promise.resolve(handler({ host, path: url.pathname, url, req }, res)).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    });
  });
  const gate = createFetchGate({
    allowPrivateNetwork: true,
    resolve: async (hostname) => {
      if (hostname.endsWith(".test")) return ["127.0.0.1"];
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    },
  });
  return {
    server,
    gate,
    requests,
    url: (path = "/", host = "site.test") => `http://${host}:${server.port}${path}`,
    close: async () => {
      await gate.close();
      await server.close();
    },
  };
}

/** Sends an HTML page whose body holds a link to each of `hrefs`. */
export function sendLinks(res: ServerResponse, hrefs: readonly string[], title = "page"): void {
  const body = hrefs.map((href) => `<a href="${href}">${href}</a>`).join("\n");
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(`<html><head><title>${title}</title></head><body>${body}</body></html>`);
}

/**
 * Runs a frontier against real pages: fetches what `next()` hands out, feeds the links of each
 * HTML page to `discover()`, marks it done. Stops after `maxPages` fetches. Returns the URLs fetched.
 */
export async function walk(gate: FetchGate, frontier: CrawlFrontier, maxPages = 100_000): Promise<string[]> {
  const fetched: string[] = [];
  while (fetched.length < maxPages) {
    const entry = frontier.next();
    if (!entry) break;
    fetched.push(entry.url);
    const response = await gate.fetch({ url: entry.url, timeoutMs: 10_000 });
    const type = response.headers["content-type"] ?? "";
    if (response.status === 200 && type.includes("html")) {
      frontier.discover(response.url, scanLinks(decodeText(response.body, type), response.url), entry.depth);
    }
    frontier.done(entry.url);
  }
  return fetched;
}

/** The path (with query) of each URL. */
export function paths(urls: readonly string[]): string[] {
  return urls.map((u) => {
    const url = new URL(u);
    return `${url.pathname}${url.search}`;
  });
}
