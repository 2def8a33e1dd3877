/**
 * Crawl discovery for the local engine: which URLs a crawl or a map visits. robots.txt,
 * sitemaps, URL normalization and the bounded breadth-first frontier; every request goes
 * through the fetch gate.
 */
export { CrawlFrontier, MAX_QUERY_VARIANTS, MAX_ROBOTS_LISTED, type FrontierEntry, type FrontierOptions, type FrontierState } from "./frontier.js";
export { scanHead, scanLinks, scanPage, type PageHead } from "./html-scan.js";
export { mapSite, type MapLink, type MapOptions, type MapResult } from "./map.js";
export { MAX_URL_LENGTH, normalizeUrl, withoutTrailingSlash, type NormalizeOptions } from "./normalize-url.js";
export { rankByRelevance } from "./rank.js";
export { loadRobots, robotsFromText, ROBOTS_MAX_BYTES, ROBOTS_TIMEOUT_MS, type Robots, type RobotsOptions } from "./robots.js";
export { isAllowed, parseRobots, ROBOTS_USER_AGENT, type RobotsRule, type RobotsRules } from "./robots-rules.js";
export { hasRepeatedSegments, siteHost, siteScope, type ScopeOptions, type SiteScope } from "./scope.js";
export {
  DEFAULT_MAX_SITEMAP_BYTES,
  DEFAULT_MAX_SITEMAPS,
  readSitemaps,
  sitemapSources,
  sitemapWarnings,
  type SitemapFailure,
  type SitemapOptions,
  type SitemapResult,
} from "./sitemap.js";
export { scanSitemap, type LocVisitor, type SitemapKind } from "./sitemap-scan.js";
export { startCrawl, type CrawlStart, type CrawlStartOptions } from "./start.js";
