import type { Document } from "./document.js";
import type { ExtractionPage, ExtractionSpec, ExtractResult, PageExtraction } from "./extract.js";
import type { Action, CrawlRequest, ExtractRequest, JsonSchema, MapRequest, ParseOptions, ScrapeOptions } from "./types.js";
import type { SearchAnswer, SearchRequest } from "./search.js";
import type { SessionCheck, SessionHandle, SessionSpec, SessionState } from "./session.js";
import type { AgentModel, AgentRequest, AgentResult } from "./agent.js";

/**
 * A crawl's discovery state on the local engine: the runner takes URLs from it, fetches them
 * through its own pool (limits, retries, storage) and reports the links each page had.
 */
export interface CrawlFrontierPort {
  /** The next page; `linksOnly` when it is fetched for its links only (a start URL the crawl's include/exclude patterns refuse): not stored, not billed. */
  next(): { url: string; depth: number; linksOnly?: true } | undefined;
  discover(fromUrl: string, links: readonly string[], fromDepth: number): void;
  done(url: string): void;
  readonly stats: { found: number; skippedByRobots: number; skippedByRules: number };
  /** Seconds between two requests to the site: the crawl's `delay`, else robots.txt Crawl-delay. */
  readonly delaySeconds?: number;
  /** URLs robots.txt kept the crawl from (the first thousand), for the report. */
  readonly robotsBlocked: readonly string[];
  /** What was cut short or ignored while starting (robots.txt unreadable, a sitemap too big…). */
  readonly warnings: readonly string[];
  /** Plain JSON to continue from after an interruption. */
  snapshot(): unknown;
  /** The key a URL is deduplicated by (the crawl's rules: similar URLs share one). */
  keyOf?(url: string): string;
  /** Pages with a query string the crawl accepts per path at most (a trap defence: calendars, session ids). */
  readonly maxQueryVariants?: number;
  /** Set when several processes share the frontier (the store keeps it): see SharedFrontierHooks. */
  readonly shared?: SharedFrontierHooks;
}

/** What a crawl does differently when its frontier is shared by several processes. */
export interface SharedFrontierHooks {
  /**
   * Called when `next()` has nothing and no page of this process is in flight: waits until a page
   * may be handed out (true), or the crawl is over for this process (false): no page is queued or
   * claimed by any process any more, or the job was cancelled or ended.
   */
  more(signal: AbortSignal): Promise<boolean>;
  /** This process leads the crawl: it checks the previous crawl's hidden pages and finishes the step. */
  readonly leads: boolean;
}

/**
 * Per-host politeness that several processes share (the store keeps it): requests to a host in
 * flight across them, and when the next one may start (Crawl-delay, a crawl's delay, Retry-After).
 */
export interface HostGate {
  /** A request slot for `host`, or how long to wait before asking again. */
  take(host: string, limit: number, intervalMs: number): { slot: number } | { waitMs: number };
  release(slot: number): void;
  /** No request to `host` starts for `forMs`. */
  pause(host: string, forMs: number): void;
}

/**
 * A wait an engine sits through on its own — a service's Retry-After, a backoff before asking
 * again — told before it starts so that a long silence has a reason. Engines report waits longer
 * than 2 s only.
 */
export interface EngineWait {
  /** What is waited for and why, e.g. `the status of crawl job 12: the service is rate limiting (HTTP 429)`. */
  reason: string;
  waitMs: number;
}

/** Where an engine reports its waits (a run turns each into a line of its progress). */
export type OnEngineWait = (wait: EngineWait) => void;

/** A crawl the service runs (remote engines): its pages are read in order while it runs. */
export interface CrawlJobPort {
  readonly id: string;
  /** Pages from `skip` on, in the service's order, until the job ends (by its status). */
  pages(skip: number, signal?: AbortSignal): AsyncIterable<Document>;
  /** The latest status page read. */
  readonly last?: { status: string; completed?: number; total?: number; creditsUsed?: number; warning?: string };
  /** Asks the service to stop the job; true when it confirms. */
  cancel(): Promise<boolean>;
}

/** One URL of a site, with its title and description where known. */
export interface MapLink {
  url: string;
  title?: string;
  description?: string;
}

/** The answer of a map, shaped like the v2 map response. */
export interface MapResult {
  links: MapLink[];
  /** What went wrong or was cut short, when something was. */
  warning?: string;
}

/** Settings of an engine that apply to every request of a run. */
export interface EngineSettings {
  /** Let requests reach loopback, private, link-local and metadata addresses (off by default). */
  allowPrivateNetwork: boolean;
}

/**
 * The engine port (DESIGN.md §3). The local engine and the remote client implement it and return
 * the same shapes. Implementations throw ScrapelineError with a kind, never bare errors.
 */
/** What a caller asks of a scrape beyond the service's options. */
export interface ScrapeExtras {
  /** Also return `pageLinks`: every link of the whole page (a crawl follows them), whatever the content options. */
  pageLinks?: boolean;
  /** Load the page logged in: the session's cookies (same-site requests) and storage, updated with what the page sets. */
  session?: SessionHandle;
  /** Judge the loaded page by this check (a session's expiredWhen) and set the document's `expiredShown`. */
  expiredWhen?: SessionCheck;
  /**
   * Keep the page open once it is converted and hand it over (an interact step carries on from it).
   * Only a page loaded in a browser can be kept: engines that load it otherwise never call this.
   */
  keepOpen?: (page: KeptPage) => void;
  /** Load the page in the browser even when its options need none (a page to carry on from with actions). */
  inBrowser?: boolean;
}

/** Links of a page to open in tabs: those `selector` matches, in page order, at most `limit`. */
export interface TabLinks {
  selector: string;
  limit: number;
}

/** A scraped page left open in its browser context, as its scrape's actions left it. */
export interface KeptPage {
  /**
   * Runs `actions` on the page as it stands and converts the page they leave like a scrape with
   * `options` (whose own actions are not run again). Each `scrape` action's snapshot is converted
   * too (`snapshots`, in order, each under the URL the page had then). With `tabs`, also gives the
   * absolute URLs of the links to open in tabs (http(s) only, without duplicates).
   */
  carryOn(actions: readonly Action[], options: ScrapeOptions, signal?: AbortSignal, tabs?: TabLinks): Promise<{ document: Document; snapshots: Document[]; tabUrls: string[] }>;
  /** Loads `url` in a new tab of the page's context (its cookies and storage), runs `options.actions` there, converts it and closes the tab. */
  openTab(url: string, options: ScrapeOptions, signal?: AbortSignal): Promise<Document>;
  close(): Promise<void>;
}

/** A document file to parse: its name (for messages and the type its extension claims), bytes and where it came from. */
export interface ParseInput {
  /** The file's name or path as the user wrote it (`reports/q3.pdf`, an upload's filename). */
  name: string;
  bytes: Uint8Array;
  /** The document's sourceURL: a file: URL, or the upload's name. */
  url: string;
  /** The file system's modification time (ISO 8601), used when the file has no property of its own. */
  modifiedTime?: string;
}

export interface Engine {
  readonly name: string;
  /** The engine fills `changeTracking` itself (the service); otherwise the runner compares pages with the store's snapshots. */
  readonly tracksChanges?: boolean;
  scrape(url: string, options: ScrapeOptions, signal?: AbortSignal, extras?: ScrapeExtras): Promise<Document>;
  /** Local crawls: robots.txt and sitemaps read (with the session's cookies, when given), the frontier seeded (or restored). */
  startCrawl?(request: CrawlRequest, options: { signal?: AbortSignal; restore?: unknown; session?: SessionHandle; watch?: DiscoveryWatch }): Promise<CrawlFrontierPort>;
  /** A map of the site; with a session its robots.txt, sitemaps and pages are read logged in. */
  map?(request: MapRequest, signal?: AbortSignal, extras?: { session?: SessionHandle; watch?: DiscoveryWatch }): Promise<MapResult>;
  /**
   * Local extract steps: the pages' data (each page scraped with a json format) merged in the
   * order given, with the sources of each field and the places the result breaks the schema.
   */
  combineExtractions?(parts: ReadonlyArray<{ url: string; data: unknown }>, schema?: JsonSchema): { data: unknown; sources: Record<string, string[]>; warnings: string[]; violations: string[] };
  /** Whether the engine can search the web (extract's enableWebSearch). */
  readonly searchesWeb?: boolean;
  /** Documents carry the credits the service billed (metadata.creditsUsed); the rules only fill gaps. */
  readonly reportsCredits?: boolean;
  /** Remote crawls: a job on the service (or the one started before an interruption). */
  startCrawlJob?(request: CrawlRequest, options: { signal?: AbortSignal; jobId?: string; onWait?: OnEngineWait }): Promise<CrawlJobPort>;
  /** Remote multi-URL scrapes: one batch job on the service (or the one started before an interruption). */
  startBatchJob?(urls: string[], options: ScrapeOptions, control: { signal?: AbortSignal; jobId?: string; onWait?: OnEngineWait }): Promise<CrawlJobPort>;
  /** Remote extracts: the whole extract runs on the service; `urls` are the request's URLs (globs included). */
  extractJob?(request: ExtractRequest, urls: string[], signal?: AbortSignal): Promise<ExtractResult>;
  /** Parse steps: one document file (its bytes, read by the caller) converted to the requested formats. */
  parse?(file: ParseInput, options: ParseOptions, signal?: AbortSignal): Promise<Document>;
  /** Releases sockets, browsers and workers. */
  close(): Promise<void>;
  /** Web search (search steps): results by source; results are scraped by the runner (local) or by the service (remote). */
  search?(request: SearchRequest, options: { signal?: AbortSignal; onWait?: OnEngineWait }): Promise<SearchAnswer>;
  /** Performs a session's login in a fresh browser context and returns its state; throws with the reason when the check fails. */
  login?(spec: SessionSpec, signal?: AbortSignal): Promise<SessionState>;
  /** A browser page kept open for calls (serve's /v2/browser), optionally logged in and first brought to where a scrape left it. */
  openLivePage?(start: LivePageStart, signal?: AbortSignal): Promise<LivePage>;
  /**
   * Throws (kind "blocked") when the options' threat protection refuses `url`; what the page cache
   * answers meets it too, as a fetch would (the cache is shared, the policy is the caller's).
   */
  checkTarget?(url: string, options: ScrapeOptions): void;
  /** Scrapes can hand over the browser page they loaded (ScrapeExtras.keepOpen), for interact steps to carry on from. */
  readonly keepsPages?: boolean;
  /** Whether `search` has a provider to ask (the local engine needs SearXNG configured). */
  readonly canSearch?: boolean;
  /** Local agent steps: the configured model (throws `unsupported`, saying what to set, without one). */
  agentModel?(): AgentModel;
  /** Remote agent steps: the whole agent runs on the service (POST /v2/agent, then polled). */
  agentJob?(request: AgentRequest, options: { signal?: AbortSignal; onWait?: OnEngineWait }): Promise<AgentResult>;
  /** The agent's extract tool: a fetched page's data, from its structured data and selectors first (no tokens), else by the model. */
  extractPage?(page: ExtractionPage, spec: ExtractionSpec, signal?: AbortSignal): Promise<PageExtraction>;
}

/** Where a live page starts: blank, or a scrape's URL with its waitFor and actions replayed. */
export interface LivePageStart {
  replay?: { url: string; options: ScrapeOptions };
  session?: SessionHandle;
}

/** The methods of a live page that may be called, with JSON arguments and a JSON answer. */
export const LIVE_PAGE_METHODS = ["goto", "url", "title", "content", "click", "fill", "press", "type", "waitForSelector", "waitForTimeout", "textContent", "innerText", "evaluate", "goBack", "reload"] as const;
export type LivePageMethod = (typeof LIVE_PAGE_METHODS)[number];

/** A browser page that stays open between calls; every request it makes passes the private-network gate. */
export interface LivePage {
  call(method: LivePageMethod, args: readonly unknown[]): Promise<unknown>;
  /** Stops the script the page is running (a call left waiting on it), leaving the page of use: a fresh page of the same session when it does not answer. */
  interrupt(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A request a session's discovery made (robots.txt, a sitemap, a page a map read), as it ended:
 * the runner judges from these whether the session's login had expired on the site.
 */
export interface DiscoveryResponse {
  /** The URL asked for. */
  url: string;
  /** Where it ended, after redirects. */
  finalUrl: string;
  status: number;
  /** An HTML answer showed the watch's `expiredWhen` check. */
  expiredShown: boolean;
}

/** Told of every request a logged-in discovery (a crawl's start, a map) makes, each judged by `expiredWhen` when given. */
export interface DiscoveryWatch {
  expiredWhen?: SessionCheck;
  seen(response: DiscoveryResponse): void;
}
