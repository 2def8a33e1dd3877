import type { SearchAnswer, SearchRequest } from "../../core/index.js";
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
  /** Each page the browser loaded (its final HTML, status and headers), as a run keeps it. */
  keepBrowserPage?: (url: string, page: RenderedPage) => void;
  /**
   * A page that needs the browser answered from its stored rendered HTML instead, with no browser
   * (a run made from stored pages); undefined: load it in the browser. May throw (not stored).
   */
  storedBrowserPage?: (url: string) => RenderedPage | undefined;
}

/** A page as the browser left it: what converting it needs. */
export interface RenderedPage {
  url: string;
  status: number;
  headers: Record<string, string>;
  html: string;
}
