import type { MapLink, MapRequest } from "../../../core/index.js";
import type { PageHead } from "./html-scan.js";
import { normalizedUrl } from "./normalize-url.js";
import { rankByRelevance } from "./rank.js";
import type { Robots } from "./robots.js";
import { dedupeKey } from "./rules.js";
import { hasRepeatedSegments, siteHost } from "./scope.js";

/** Sitemap URLs kept at most for one map, whatever the limit. */
export const MAX_MAP_CANDIDATES = 200_000;
/** Query-string variants of one path a walk reads at most (calendars, session ids), as a crawl does. */
export const MAX_WALKED_QUERY_VARIANTS = 10;
/** With `search`, a walk gathers at least this many candidates to rank (the default limit). */
export const SEARCH_WALK_CANDIDATES = 5000;

/**
 * The URLs a map found, normalized and deduplicated, in the order found, kept to the start host
 * (and its subdomains with `includeSubdomains`) and to what the start origin's robots.txt allows,
 * with the titles and descriptions of the pages read.
 */
export class MapList {
  private readonly links = new Map<string, MapLink>();
  private readonly queryVariants = new Map<string, number>();
  private readonly home: string;
  /** Ranking needs every candidate; without a search term the first `limit` are the answer. */
  private readonly cap: number;

  constructor(private readonly request: MapRequest, start: string, private readonly robots: Robots) {
    this.home = siteHost(new URL(start).hostname);
    this.cap = request.search ? MAX_MAP_CANDIDATES : request.limit;
  }

  get size(): number {
    return this.links.size;
  }

  /**
   * True once a walk need read no more: `limit` URLs are known, or with `search` enough
   * candidates to rank (at least SEARCH_WALK_CANDIDATES), since the best may not come first.
   */
  get full(): boolean {
    const wanted = this.request.search ? Math.max(this.request.limit, SEARCH_WALK_CANDIDATES) : this.request.limit;
    return this.links.size >= wanted;
  }

  /** Whether absolute `url` is on the site the map covers. */
  onSite(url: string): boolean {
    const host = siteHost(new URL(url).hostname);
    return host === this.home || (this.request.includeSubdomains && host.endsWith(`.${this.home}`));
  }

  /** Lists `raw` (resolved against `base`) if it belongs; returns its entry and whether it is new. */
  add(raw: string, base?: string): { link: MapLink; added: boolean } | undefined {
    const url = normalizedUrl(raw, base, { ignoreQueryParameters: this.request.ignoreQueryParameters });
    if (url === undefined) return undefined;
    const key = dedupeKey(url, false);
    const known = this.links.get(key);
    if (known) return { link: known, added: false };
    if (this.links.size >= this.cap) return undefined;
    const href = url.href;
    if (!this.onSite(href)) return undefined;
    if (url.origin === this.robots.origin && !this.robots.allows(href)) return undefined;
    const link: MapLink = { url: href };
    this.links.set(key, link);
    return { link, added: true };
  }

  /** Lists a page that was read, with its title and description. */
  addPage(url: string, head: PageHead): void {
    const entry = this.add(url);
    if (entry) Object.assign(entry.link, head);
  }

  /**
   * Whether a listed URL is worth reading for more links: not a path with a segment repeated
   * three times (a relative-link loop), and not past MAX_WALKED_QUERY_VARIANTS query variants
   * of one path. Such URLs are listed all the same.
   */
  worthWalking(href: string): boolean {
    const url = new URL(href);
    if (hasRepeatedSegments(url.pathname)) return false;
    if (url.search === "") return true;
    const path = `${url.origin}${url.pathname}`;
    const seen = this.queryVariants.get(path) ?? 0;
    if (seen >= MAX_WALKED_QUERY_VARIANTS) return false;
    this.queryVariants.set(path, seen + 1);
    return true;
  }

  /** Lists the links of a page; returns the URLs listed now for the first time. */
  addLinks(links: readonly string[], base: string): string[] {
    const added: string[] = [];
    for (const raw of links) {
      const entry = this.add(raw, base);
      if (entry?.added) added.push(entry.link.url);
    }
    return added;
  }

  /** The listed URLs among `raws`, as listed. */
  listed(raws: readonly string[], base?: string): string[] {
    const found: string[] = [];
    for (const raw of raws) {
      const url = normalizedUrl(raw, base, { ignoreQueryParameters: this.request.ignoreQueryParameters });
      const link = url === undefined ? undefined : this.links.get(dedupeKey(url, false));
      if (link) found.push(link.url);
    }
    return found;
  }

  /** The answer: by relevance to `search` when given, else in the order found; at most `limit`. */
  result(): MapLink[] {
    const links = [...this.links.values()];
    return (this.request.search ? rankByRelevance(links, this.request.search) : links).slice(0, this.request.limit);
  }
}
