/**
 * The Document: what a scrape returns, shaped exactly like the service's v2 scrape `data`
 * (API-NOTES.md §1.3). Fields not requested in `formats` are absent.
 */
export interface DocumentMetadata {
  title?: string | string[];
  description?: string | string[];
  language?: string | string[];
  keywords?: string | string[];
  robots?: string | string[];
  favicon?: string;
  /** The URL as requested. */
  sourceURL: string;
  /** The final URL, after redirects. */
  url: string;
  statusCode: number;
  contentType?: string;
  error?: string;
  /** Pages of a PDF. */
  numPages?: number;
  cacheState?: "hit" | "miss";
  cachedAt?: string;
  creditsUsed?: number;
  proxyUsed?: "basic" | "stealth";
  scrapeId?: string;
  /** og:*, twitter:*, article:*, dc* and every other <meta name|property|itemprop> tag. */
  [meta: string]: unknown;
}

export interface ChangeTrackingResult {
  previousScrapeAt: string | null;
  changeStatus: "new" | "same" | "changed" | "removed";
  visibility: "visible" | "hidden";
  diff?: { text: string; json: { files: unknown[] } };
  json?: unknown;
}

export interface ActionResults {
  screenshots?: string[];
  scrapes?: Array<{ url: string; html: string }>;
  javascriptReturns?: Array<{ type: string; value: unknown }>;
  pdfs?: string[];
}

export interface Document {
  markdown?: string;
  html?: string;
  rawHtml?: string;
  links?: string[];
  images?: string[];
  summary?: string;
  screenshot?: string;
  json?: unknown;
  changeTracking?: ChangeTrackingResult;
  actions?: ActionResults;
  warning?: string;
  metadata: DocumentMetadata;
  /**
   * Not the service's: every link of the whole page, whatever the content options, when a crawl
   * asks the engine for them (what it follows). Kept in the page cache, never in a stored page.
   */
  pageLinks?: string[];
  /**
   * Not the service's: whether the page showed the `expiredWhen` check the engine was asked to
   * judge (a session's login expired). Read by the runner and removed before the page is stored.
   */
  expiredShown?: boolean;
}
