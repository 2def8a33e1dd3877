import { ScrapelineError } from "../../../core/index.js";

/** One result of SearXNG's JSON answer (the fields read here; the rest is ignored). */
export interface SearxngResult {
  url?: string;
  title?: string;
  content?: string;
  category?: string;
  publishedDate?: string | null;
  img_src?: string;
  thumbnail_src?: string;
  thumbnail?: string;
  resolution?: string;
}

/** One page of SearXNG's JSON answer. */
export interface SearxngPage {
  results: SearxngResult[];
  /** Engines that failed for this page, with their reason, e.g. ["google", "timeout"]. */
  unresponsive: Array<[string, string]>;
}

/** The variable naming the SearXNG instance of the local engine. */
export const SEARXNG_VARIABLE = "SCRAPELINE_SEARXNG_URL";

/** How to start SearXNG with its JSON output on (README: "Web search" has the one-line form). */
export const SEARXNG_START = 'docker run -d -p 8888:8080 -v "$PWD/searxng:/etc/searxng" searxng/searxng, with search: formats: [html, json] in searxng/settings.yml';

/**
 * GET {base}/search with the given parameters (format=json added). The address is the operator's
 * setting, trusted like one (it usually runs beside the tool, on a private address), so it does
 * not go through the fetch gate; the result URLs do, when they are scraped.
 */
export async function fetchSearxngPage(base: string, params: URLSearchParams, signal: AbortSignal, deadline: { signal: AbortSignal; ms: number }): Promise<SearxngPage> {
  const url = new URL("search", base.endsWith("/") ? base : `${base}/`);
  for (const [key, value] of params) url.searchParams.set(key, value);
  url.searchParams.set("format", "json");
  const where = `SearXNG at ${url.origin}`;
  let status: number;
  let text: string;
  try {
    // Loaded with the first call: undici's index is large, and most commands never make this one.
    const { request } = await import("undici");
    const response = await request(url, { method: "GET", headers: { accept: "application/json" }, signal: AbortSignal.any([signal, deadline.signal]), headersTimeout: deadline.ms, bodyTimeout: deadline.ms });
    status = response.statusCode;
    text = await response.body.text();
  } catch (error) {
    if (signal.aborted) throw new ScrapelineError("cancelled", "the search was cancelled");
    if (deadline.signal.aborted) throw new ScrapelineError("timeout", `${where} did not answer within ${deadline.ms} ms (the search's timeout)`);
    throw new ScrapelineError("network", `cannot reach ${where} (${SEARXNG_VARIABLE}): ${(error as Error).message}`, { cause: error });
  }
  if (status === 403) {
    throw new ScrapelineError(
      "invalid-input",
      `${where} refused format=json (HTTP 403): its JSON output is not enabled. Add json to search.formats in its settings.yml (search: formats: [html, json]) and restart it`,
      { status },
    );
  }
  if (status === 429) throw new ScrapelineError("http-status", `${where} is rate limiting (HTTP 429); its limiter may be on (server.limiter in settings.yml)`, { status });
  if (status < 200 || status >= 300) throw new ScrapelineError("http-status", `${where} answered HTTP ${status}`, { status });
  return parsePage(text, where);
}

function parsePage(text: string, where: string): SearxngPage {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ScrapelineError("bad-content", `${where} did not answer with JSON: ${snippet(text)}`);
  }
  if (typeof body !== "object" || body === null || !Array.isArray((body as { results?: unknown }).results)) {
    throw new ScrapelineError("bad-content", `${where} answered JSON without a results list`);
  }
  const { results, unresponsive_engines } = body as { results: unknown[]; unresponsive_engines?: unknown };
  const unresponsive = Array.isArray(unresponsive_engines)
    ? unresponsive_engines.flatMap((e): Array<[string, string]> => (Array.isArray(e) && typeof e[0] === "string" ? [[e[0], typeof e[1] === "string" ? e[1] : "no answer"]] : []))
    : [];
  return { results: results.filter((r): r is SearxngResult => typeof r === "object" && r !== null), unresponsive };
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat || "(empty body)";
}
