import { isScrapelineError, type ScrapelineError } from "../../../core/index.js";
import { decodeText, isHostDown, isUtf16, requestHeaders, textEncoding, type FetchGate } from "../fetch/index.js";
import { isAllowed, parseRobots, ROBOTS_USER_AGENT, type RobotsRules } from "./robots-rules.js";

/** How long robots.txt may take. */
export const ROBOTS_TIMEOUT_MS = 10_000;
/** A robots.txt bigger than this is ignored (allow-all), as the big crawlers do past their limit. */
export const ROBOTS_MAX_BYTES = 512 * 1024;

/** The robots.txt of one origin as it applies to scrapeline for this run. */
export interface Robots {
  /** `scheme://host[:port]` the file was loaded for; its rules say nothing about other origins. */
  readonly origin: string;
  /** Whether the path and query of `url` may be fetched. */
  allows(url: string): boolean;
  crawlDelaySeconds?: number;
  /** Absolute URLs of the `Sitemap:` lines, resolved against the origin. */
  sitemaps: string[];
  /** Why the file was not used as written (unreachable, too large, binary…), for warnings. */
  note?: string;
  /**
   * Set when the file could not be read because the origin itself cannot be reached (its name
   * does not resolve, it refuses connections, or the network policy refuses its address): the
   * host is down, which says nothing about what it allows.
   */
  hostDown?: ScrapelineError;
}

/** Request settings for `loadRobots`. */
export interface RobotsOptions {
  timeoutMs?: number;
  maxBytes?: number;
  /** The product token matched against `User-agent` lines; default `scrapeline`. */
  userAgent?: string;
  /** Extra request headers (the user's); the default User-Agent names scrapeline. */
  headers?: Record<string, string>;
  skipTlsVerification?: boolean;
  signal?: AbortSignal;
}

/**
 * Fetches and reads `<origin>/robots.txt` through the gate. A 2xx is parsed; any other 4xx
 * (and any status that is neither 2xx nor an error) means no file, so everything is allowed;
 * 429, 5xx, a timeout or a network failure mean the site could not say, so nothing is allowed
 * for this run (RFC 9309 §2.3.1); when the origin itself cannot be reached, `hostDown` holds
 * the error. A file over `maxBytes`, or binary content, is ignored (allow-all). Every fallback
 * carries a `note`. Only cancellation is thrown.
 */
export async function loadRobots(gate: FetchGate, origin: string, options: RobotsOptions = {}): Promise<Robots> {
  const base = new URL(origin).origin;
  const url = `${base}/robots.txt`;
  const maxBytes = options.maxBytes ?? ROBOTS_MAX_BYTES;
  let status: number;
  let text: string;
  try {
    const response = await gate.fetch({
      url,
      headers: { ...requestHeaders({ mobile: false, ...(options.headers ? { headers: options.headers } : {}) }), Accept: "text/plain,*/*;q=0.5" },
      timeoutMs: options.timeoutMs ?? ROBOTS_TIMEOUT_MS,
      maxBodyBytes: maxBytes,
      maxRedirects: 5,
      ...(options.skipTlsVerification ? { skipTlsVerification: true } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    status = response.status;
    if (status >= 200 && status < 300 && looksBinary(response.body, response.headers["content-type"])) {
      return allowAll(base, `${url} is binary (${response.headers["content-type"] ?? "no content type"}); ignored, everything allowed`);
    }
    text = decodeText(response.body, response.headers["content-type"]);
  } catch (error) {
    if (isScrapelineError(error, "cancelled")) throw error;
    if (isScrapelineError(error, "too-large")) return allowAll(base, `${url} is larger than ${maxBytes} bytes; ignored, everything allowed`);
    if (isScrapelineError(error, "bad-content")) return allowAll(base, `${url} could not be decoded; ignored, everything allowed`);
    const reason = error instanceof Error ? error.message : String(error);
    const robots = disallowAll(base, `${url} could not be read (${reason}); nothing on ${base} is crawled in this run`);
    if (isHostDown(error) && originOf(error.url) === base) robots.hostDown = error;
    return robots;
  }
  if (status === 429 || status >= 500) {
    return disallowAll(base, `${url} answered HTTP ${status}; nothing on ${base} is crawled in this run`);
  }
  if (status < 200 || status >= 300) return allowAll(base, status >= 400 ? undefined : `${url} answered HTTP ${status}; everything allowed`);
  return fromRules(base, parseRobots(text, options.userAgent ?? ROBOTS_USER_AGENT));
}

/** Robots for `origin` from the text of its robots.txt (no fetching). */
export function robotsFromText(origin: string, text: string, userAgent = ROBOTS_USER_AGENT): Robots {
  return fromRules(new URL(origin).origin, parseRobots(text, userAgent));
}

function fromRules(origin: string, parsed: RobotsRules): Robots {
  const sitemaps: string[] = [];
  for (const raw of parsed.sitemaps) {
    try {
      const url = new URL(raw, origin);
      if ((url.protocol === "http:" || url.protocol === "https:") && !sitemaps.includes(url.href)) sitemaps.push(url.href);
    } catch {
      // not a URL: ignored like any other malformed line
    }
  }
  const robots: Robots = {
    origin,
    sitemaps,
    allows(target) {
      try {
        const url = new URL(target);
        return isAllowed(parsed.rules, `${url.pathname}${url.search}`);
      } catch {
        return false;
      }
    },
  };
  if (parsed.crawlDelaySeconds !== undefined) robots.crawlDelaySeconds = parsed.crawlDelaySeconds;
  return robots;
}

function allowAll(origin: string, note?: string): Robots {
  return { origin, sitemaps: [], allows: () => true, ...(note ? { note } : {}) };
}

function disallowAll(origin: string, note: string): Robots {
  return { origin, sitemaps: [], allows: () => false, note };
}

function originOf(url: string | undefined): string | undefined {
  try {
    return url === undefined ? undefined : new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** NUL bytes do not occur in text files; a robots.txt holding them is an image or an archive. */
function looksBinary(body: Buffer, contentType: string | undefined): boolean {
  const head = body.subarray(0, 8192);
  // UTF-16 text has a NUL in every ASCII character; decodeText reads it, and its characters tell.
  if (isUtf16(textEncoding(head, contentType))) return decodeText(head, contentType).includes("\0");
  return head.includes(0);
}
