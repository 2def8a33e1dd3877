import type { Document } from "./document.js";
import type { SearchRequest, SearchSourceType } from "./types.js";

export type { SearchCategory, SearchRequest, SearchSource, SearchSourceType, SearchTimeRange } from "./types.js";

export interface WebResult {
  url: string;
  title: string;
  description: string;
  position: number;
  category?: string;
}

export interface NewsResult {
  title: string;
  url: string;
  snippet: string;
  date?: string;
  imageUrl?: string;
  position: number;
}

export interface ImageResult {
  title: string;
  imageUrl: string;
  imageWidth?: number;
  imageHeight?: number;
  url: string;
  position: number;
}

/** The results of a search, shaped like the `data` of the v2 search response. */
export interface SearchResults {
  web?: WebResult[];
  news?: NewsResult[];
  images?: ImageResult[];
}

/** What an engine answers to a search: the results, what went wrong on the way, and (remote) what the service billed. */
export interface SearchAnswer {
  data: SearchResults;
  warnings: string[];
  /** Credits the service billed, scraping included (remote engines). */
  creditsUsed?: number;
  /** The service's id of the search (remote engines). */
  id?: string;
  /** Results the engine scraped itself (remote engines: the service scrapes when formats ask). */
  scraped?: Array<{ url: string; document: Document }>;
}

/** A result between two runs of the same search step: new in this run, or gone since the last. */
export interface SearchResultChange {
  source: SearchSourceType;
  url: string;
  title: string;
}

/** How a search's results moved since the previous run of the same step (a query monitor). */
export interface SearchChanges {
  /** The run compared with; null on a first run (every result is new). */
  previousRunId: number | null;
  added: SearchResultChange[];
  removed: SearchResultChange[];
}

/** A search step's stored result: the service's response, with the comparison with the previous run. */
export interface StoredSearchResult {
  success: true;
  data: SearchResults;
  creditsUsed: number;
  warning?: string;
  changes?: SearchChanges;
}

/** The URLs of search results, web then news then images, each in position order, without repeats. */
export function searchResultUrls(data: SearchResults): string[] {
  const urls = [...(data.web ?? []), ...(data.news ?? []), ...(data.images ?? [])].map((r) => r.url).filter((u) => typeof u === "string" && u !== "");
  return [...new Set(urls)];
}

/** Search credits as the service bills them: 2 per started 10 results, summed across sources. */
export function searchCredits(totalResults: number): number {
  return Math.ceil(totalResults / 10) * 2;
}
