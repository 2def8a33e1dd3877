import type { Engine, ExtractRequest, MapResult } from "../../core/index.js";
import type { DiscoveryExtras } from "../sessions/index.js";

/** Runs a map logged in (the step's session), giving it the session and the watch of its requests. */
export type MapInSession = (map: (extras: DiscoveryExtras) => Promise<MapResult>) => Promise<MapResult>;

export function isGlob(entry: string): boolean {
  return entry.includes("*");
}

/** `*` matches any characters, `/` included, as the service's `https://example.com/products/*` does. */
export function extractGlobRegExp(glob: string): RegExp {
  const escaped = glob.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*");
  return new RegExp(`^${escaped}$`);
}

/**
 * Expands globs through a map of the site (its sitemap unless ignoreSitemap, its links, its
 * subdomains unless includeSubdomains is false), keeps entry order, removes duplicates and stops
 * at the request's limit, saying so when URLs were left out.
 */
export async function expandUrlGlobs(entries: readonly string[], request: ExtractRequest, engine: Engine, signal: AbortSignal, inSession?: MapInSession): Promise<{ urls: string[]; warnings: string[] }> {
  const urls: string[] = [];
  const seen = new Set<string>();
  const warnings: string[] = [];
  let leftOut = 0;
  const add = (url: string): void => {
    if (seen.has(url)) return;
    seen.add(url);
    if (urls.length >= request.limit) leftOut++;
    else urls.push(url);
  };
  for (const entry of entries) {
    if (!isGlob(entry)) {
      add(entry);
      continue;
    }
    if (!engine.map) {
      warnings.push(`${entry}: the ${engine.name} engine cannot expand globs; the entry was skipped`);
      continue;
    }
    const base = entry.slice(0, entry.indexOf("*"));
    const start = base.slice(0, base.lastIndexOf("/") + 1) || base;
    const mapRequest = { url: start, sitemap: request.ignoreSitemap ? "skip" : "include", includeSubdomains: request.includeSubdomains, ignoreQueryParameters: true, limit: Math.max(request.limit * 10, 5000) } as const;
    const map = inSession ? await inSession((extras) => engine.map!(mapRequest, signal, extras)) : await engine.map(mapRequest, signal);
    if (map.warning) warnings.push(`${entry}: ${map.warning}`);
    const pattern = extractGlobRegExp(entry);
    let matched = 0;
    for (const link of map.links) {
      if (!pattern.test(link.url)) continue;
      matched++;
      add(link.url);
    }
    if (matched === 0) warnings.push(`${entry} matched no URL of the site`);
  }
  if (leftOut > 0) warnings.push(`${leftOut} more URL(s) matched but were left out: the extract is limited to ${request.limit} page(s) (set limit to change it)`);
  return { urls, warnings };
}
