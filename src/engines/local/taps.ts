import type { BrowserContext } from "playwright-core";
import type { Document, ScrapeOptions, SearchAnswer, SearchRequest } from "../../core/index.js";
import type { FetchGate } from "./fetch/index.js";

/** One request to the model's chat-completions endpoint and what it answered. */
export type ModelSend = (body: unknown, signal?: AbortSignal) => Promise<{ status: number; text: string; retryAfter?: string }>;

/** One web search and its answer. */
export type SearchSend = (request: SearchRequest, signal?: AbortSignal) => Promise<SearchAnswer>;

/**
 * Where the local engine's traffic can be taken over: the fetch gate (pages, robots.txt,
 * sitemaps), the model and the search provider. Recording wraps each and keeps what it answered;
 * replaying answers from a fixture instead and never reaches the real one.
 */
export interface EngineTaps {
  gate?: (gate: FetchGate) => FetchGate;
  model?: (send: ModelSend) => ModelSend;
  search?: (send: SearchSend) => SearchSend;
  /** Whether search has answers even without a provider configured (a replay of recorded searches). */
  searches?: boolean;
  /** Browser work the fixture cannot answer (a session's login, live pages) fails with this error instead (a replay). */
  refuseBrowser?: (url: string) => Error;
  /** Documents kept with their pages (a recording) or given back (a replay). */
  documents?: DocumentTap;
  /** Pages loaded in the browser: recorded, or answered from a fixture. */
  browser?: BrowserTap;
  /** Each page the browser loaded (its final HTML, status and headers), as a run keeps it. */
  keepBrowserPage?: (url: string, page: RenderedPage) => void;
  /**
   * A page that needs the browser answered from its stored rendered HTML instead, with no browser
   * (a run made from stored pages); undefined: load it in the browser. May throw (not stored).
   */
  storedBrowserPage?: (url: string) => RenderedPage | undefined;
}

/** What a page's conversion depends on besides its body: the scrape's options, and whether its links are wanted for a crawl. */
export interface ConversionSettings {
  options: ScrapeOptions;
  pageLinks: boolean;
}

/**
 * Documents made of pages fetched over HTTP: a recording keeps each with its page, and a replay
 * gives it back for the same page and settings instead of converting the page again.
 */
export interface DocumentTap {
  find(url: string, settings: ConversionSettings, signal?: AbortSignal): Promise<Document | undefined>;
  keep(url: string, settings: ConversionSettings, document: Document): void;
}

/** A context's traffic as a tap took it over. */
export interface BrowserTraffic {
  /** Waits for what the tap is still keeping (a recording's bodies). */
  settled(): Promise<void>;
  /** The first request the tap could not answer (a replay's request not recorded), if any. */
  failure(): Error | undefined;
}

/**
 * Where the browser's traffic is taken over: each context a page opens in is handed to `attach`
 * before its first page. A recording keeps what its pages loaded; a replay answers every request
 * from the fixture, and `offline` has the browser's proxy gate refuse whatever would still go out.
 */
export interface BrowserTap {
  attach(context: BrowserContext): Promise<BrowserTraffic>;
  offline: boolean;
}

/** A page as the browser left it: what converting it needs. */
export interface RenderedPage {
  url: string;
  status: number;
  headers: Record<string, string>;
  html: string;
}
