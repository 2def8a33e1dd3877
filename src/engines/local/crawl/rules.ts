import type { CrawlRequest } from "../../../core/index.js";
import { withoutTrailingSlash } from "./normalize-url.js";
import { pathFilter } from "./path-filter.js";
import { hasRepeatedSegments, siteHost, siteScope } from "./scope.js";

/** How a candidate URL was met, for the rules that depend on it. */
export interface Candidate {
  /** Links away from a seed. */
  depth: number;
  /** Found on an on-site page while off-site links may be taken (one hop). */
  externalAllowed: boolean;
  /** It is the start URL, which the path rules spare. */
  start: boolean;
  /** Query-string variants of its path accepted so far. */
  queryVariants: number;
}

/** The rules of one crawl that need no state beyond the candidate (robots.txt aside). */
export interface CrawlRules {
  onSite(url: URL): boolean;
  /** The include/exclude patterns (which the start URL is spared when it is fetched for its links). */
  pathAllowed(url: URL): boolean;
  admits(url: URL, candidate: Candidate): boolean;
}

/**
 * The rules of a crawl request: site scope (host, subdomains, one external hop, start path),
 * include/exclude patterns, `maxDiscoveryDepth`, and the trap defences — a path segment
 * repeated three times, or more than `maxQueryVariants` query variants of one path.
 */
export function crawlRules(request: CrawlRequest, start: URL, maxQueryVariants: number): CrawlRules {
  const scope = siteScope(start, request);
  const pathAllowed = pathFilter(request);
  return {
    onSite: (url) => scope.onSite(url),
    pathAllowed,
    admits(url, candidate) {
      const onSite = scope.onSite(url);
      if (!onSite && !candidate.externalAllowed) return false;
      if (!candidate.start && onSite && !scope.underStartPath(url)) return false;
      if (!candidate.start && !pathAllowed(url)) return false;
      const max = request.maxDiscoveryDepth;
      if (max !== undefined && candidate.depth > max) return false;
      if (hasRepeatedSegments(url.pathname)) return false;
      return url.search === "" || candidate.queryVariants < maxQueryVariants;
    },
  };
}

/**
 * The key two URLs share when they are the same page: the normalized URL without a trailing
 * slash, and with `similar` (deduplicateSimilarURLs) also without its scheme and `www.`.
 */
export function dedupeKey(url: URL, similar: boolean): string {
  const path = withoutTrailingSlash(url.pathname);
  if (!similar) return `${url.protocol}//${url.host}${path}${url.search}`;
  const port = url.port === "" ? "" : `:${url.port}`;
  return `//${siteHost(url.hostname)}${port}${path}${url.search}`;
}
