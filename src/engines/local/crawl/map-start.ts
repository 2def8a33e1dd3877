import { isScrapelineError, ScrapelineError } from "../../../core/index.js";
import { decodeText, requestHeaders, type FetchGate } from "../fetch/index.js";
import { scanPage, type PageHead } from "./html-scan.js";

const PAGE_TIMEOUT_MS = 30_000;

/** The start page of a map, read: its final URL, head and links. */
export interface StartPage {
  url: string;
  head: PageHead;
  links: string[];
}

/** The start page's links and head; a failure is returned (to become a warning or the map's error), cancellation thrown. */
export async function readStartPage(
  gate: FetchGate,
  url: string,
  options: { headers?: Record<string, string>; skipTlsVerification?: boolean; signal?: AbortSignal },
): Promise<StartPage | ScrapelineError> {
  try {
    const response = await gate.fetch({
      url,
      headers: requestHeaders({ mobile: false, ...(options.headers ? { headers: options.headers } : {}) }),
      timeoutMs: PAGE_TIMEOUT_MS,
      ...(options.skipTlsVerification ? { skipTlsVerification: true } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (response.status < 200 || response.status >= 300) {
      return new ScrapelineError("http-status", `the start page ${url} answered HTTP ${response.status}`, { url, status: response.status });
    }
    const page = scanPage(decodeText(response.body, response.headers["content-type"]), response.url);
    return { url: response.url, head: page.head, links: page.links };
  } catch (error) {
    if (isScrapelineError(error, "cancelled")) throw error;
    if (isScrapelineError(error)) return error;
    throw error;
  }
}
