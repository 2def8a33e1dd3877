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
  /** Pages that need the browser fail with this error instead (a replay: browser traffic is not recorded). */
  refuseBrowser?: (url: string) => Error;
  /** Documents kept with their pages (a recording) or given back (a replay). */
  documents?: DocumentTap;
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
