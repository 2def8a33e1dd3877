/** Which URLs belong to the crawl's site and which part of it, decided from the start URL. */
export interface SiteScope {
  /** Same host as the start URL (a leading `www.` ignored), or one of its subdomains when allowed. */
  onSite(url: URL): boolean;
  /** Under the start URL's path (always true with `crawlEntireDomain`). */
  underStartPath(url: URL): boolean;
}

/** The crawl options that widen the scope. */
export interface ScopeOptions {
  allowSubdomains: boolean;
  crawlEntireDomain: boolean;
}

/**
 * The scope of a crawl starting at `start`. Ports and schemes do not matter, hosts do. The
 * start path is a directory: `/docs/intro.html` scopes to `/docs`, `/docs/` and `/docs` to
 * `/docs`, and `/docs` takes `/docs/a` but not `/docsearch`.
 */
export function siteScope(start: URL, options: ScopeOptions): SiteScope {
  const home = siteHost(start.hostname);
  const prefix = startPrefix(start.pathname);
  return {
    onSite(url) {
      const host = siteHost(url.hostname);
      return host === home || (options.allowSubdomains && host.endsWith(`.${home}`));
    },
    underStartPath(url) {
      if (options.crawlEntireDomain || prefix === "") return true;
      const path = url.pathname;
      return path === prefix || path.startsWith(`${prefix}/`);
    },
  };
}

/** A host name without its `www.` label, which sites use interchangeably with the bare name. */
export function siteHost(hostname: string): string {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  return host.startsWith("www.") ? host.slice(4) : host;
}

function startPrefix(pathname: string): string {
  const segments = pathname.split("/");
  const last = segments[segments.length - 1] ?? "";
  if (last.includes(".")) segments.pop();
  return segments.join("/").replace(/\/+$/, "");
}

/** True when one path segment occurs three times or more (`/a/b/a/b/a/b`): a relative-link loop. */
export function hasRepeatedSegments(pathname: string, times = 3): boolean {
  const counts = new Map<string, number>();
  for (const segment of pathname.split("/")) {
    if (segment === "") continue;
    const n = (counts.get(segment) ?? 0) + 1;
    if (n >= times) return true;
    counts.set(segment, n);
  }
  return false;
}
