/**
 * Resolves hrefs against the page's base URL. Most hrefs on real pages are already absolute or
 * root-relative with plain characters; those are joined by string operations, and only the rest
 * go through the WHATWG URL parser (cached, since pages repeat the same hrefs).
 */
export class UrlResolver {
  private readonly base: URL | null;
  private readonly origin: string;
  private readonly directory: string;
  private readonly withoutFragment: string;
  private readonly withoutQuery: string;
  private readonly cache = new Map<string, string | null>();

  constructor(pageUrl: string, baseHref?: string) {
    let base = parseUrl(pageUrl);
    if (baseHref !== undefined && baseHref.trim() !== "") base = parseUrl(baseHref.trim(), base ?? undefined) ?? base;
    this.base = base;
    if (base === null) {
      this.origin = this.directory = this.withoutFragment = this.withoutQuery = "";
      return;
    }
    const hierarchical = base.protocol === "http:" || base.protocol === "https:" || base.protocol === "file:";
    this.origin = hierarchical ? `${base.protocol}//${base.host}` : "";
    const path = base.pathname;
    this.directory = this.origin + path.slice(0, path.lastIndexOf("/") + 1);
    this.withoutQuery = this.origin + path;
    this.withoutFragment = this.withoutQuery + base.search;
  }

  /** The absolute form of href, or undefined when it cannot be resolved. Absolute URLs are kept as written. */
  resolve(rawHref: string): string | undefined {
    const href = trimUrl(rawHref);
    if (hasScheme(href)) return href;
    if (this.origin !== "" && isPlain(href)) {
      const first = href.charCodeAt(0);
      if (first === 47 /* / */) {
        if (href.charCodeAt(1) === 47) return this.base!.protocol + href;
        return this.origin + href;
      }
      if (first === 35 /* # */) return this.withoutFragment + href;
      if (first === 63 /* ? */) return this.withoutQuery + href;
      if (href === "") return this.withoutFragment;
      return this.directory + href;
    }
    let cached = this.cache.get(href);
    if (cached === undefined) {
      cached = parseUrl(href, this.base ?? undefined)?.href ?? null;
      this.cache.set(href, cached);
    }
    return cached ?? undefined;
  }
}

function parseUrl(href: string, base?: URL): URL | null {
  try {
    return new URL(href, base);
  } catch {
    return null;
  }
}

/** Leading and trailing spaces and control characters go, as do tabs and newlines inside (WHATWG URL). */
export function trimUrl(href: string): string {
  let start = 0;
  let end = href.length;
  while (start < end && href.charCodeAt(start) <= 32) start++;
  while (end > start && href.charCodeAt(end - 1) <= 32) end--;
  let out = start === 0 && end === href.length ? href : href.slice(start, end);
  if (out.indexOf("\n") !== -1 || out.indexOf("\t") !== -1 || out.indexOf("\r") !== -1) out = out.replace(/[\t\n\r]/g, "");
  return out;
}

/** Whether href starts with a URL scheme (`https:`, `mailto:`, `data:`, …). */
export function hasScheme(href: string): boolean {
  const length = Math.min(href.length, 32);
  for (let i = 0; i < length; i++) {
    const c = href.charCodeAt(i) | 0x20;
    if (c >= 97 && c <= 122) continue;
    if (i === 0) return false;
    const raw = href.charCodeAt(i);
    if ((raw >= 48 && raw <= 57) || raw === 43 || raw === 45 || raw === 46) continue;
    return raw === 58;
  }
  return false;
}

/** Printable ASCII without characters the URL parser would encode or rewrite, and without dot segments. */
function isPlain(href: string): boolean {
  let inPath = true;
  for (let i = 0; i < href.length; i++) {
    const c = href.charCodeAt(i);
    if (c <= 32 || c >= 127 || c === 34 || c === 39 || c === 60 || c === 62 || c === 92 || c === 96 || c === 123 || c === 125) return false;
    if (c === 63 || c === 35) inPath = false;
    else if (inPath && c === 46 /* . */ && (i === 0 || href.charCodeAt(i - 1) === 47)) {
      const next = href.charCodeAt(i + 1);
      if (next === 47 || next === 46 || Number.isNaN(next) || next === 63 || next === 35) return false;
    }
  }
  return true;
}

/** The URL of the largest candidate of a srcset (by `w`, else `x` descriptor; `src` counts as 1x when all are `x`). */
export function largestSrcsetCandidate(srcset: string, src: string | undefined): string | undefined {
  const candidates = parseSrcset(srcset);
  if (candidates.length === 0) return undefined;
  const allDensity = candidates.every((c) => c.w === 0);
  let best: { url: string; size: number } | undefined;
  if (allDensity && src !== undefined && src.trim() !== "") best = { url: src, size: 1 };
  for (const candidate of candidates) {
    const size = allDensity ? candidate.x : candidate.w;
    if (best === undefined || size > best.size) best = { url: candidate.url, size };
  }
  return best?.url;
}

export interface SrcsetCandidate {
  url: string;
  /** Width descriptor, 0 when absent. */
  w: number;
  /** Density descriptor, 1 when absent. */
  x: number;
}

/** Splits a srcset into candidates as the HTML spec does (URLs may contain commas). */
export function parseSrcset(srcset: string): SrcsetCandidate[] {
  const out: SrcsetCandidate[] = [];
  let i = 0;
  const n = srcset.length;
  while (i < n) {
    while (i < n && (srcset.charCodeAt(i) <= 32 || srcset.charCodeAt(i) === 44)) i++;
    if (i >= n) break;
    const start = i;
    while (i < n && srcset.charCodeAt(i) > 32) i++;
    let url = srcset.slice(start, i);
    let descriptors = "";
    if (url.endsWith(",")) {
      url = url.replace(/,+$/, "");
    } else {
      const end = srcset.indexOf(",", i);
      descriptors = srcset.slice(i, end === -1 ? n : end);
      i = end === -1 ? n : end + 1;
    }
    let w = 0;
    let x = 1;
    for (const part of descriptors.trim().split(/\s+/)) {
      const value = parseFloat(part);
      if (part.endsWith("w") && value > 0) w = value;
      else if (part.endsWith("x") && value > 0) x = value;
    }
    if (url !== "") out.push({ url, w, x });
  }
  return out;
}
