import { ScrapelineError } from "../../core/index.js";

/** The wait a 429 asks for: the Retry-After header (seconds or HTTP-date), else "retry after Ns" in the message. */
export function retryAfterMs(header: string | undefined, message: string, now = Date.now()): number | undefined {
  if (header) {
    const seconds = Number(header);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const date = Date.parse(header);
    if (Number.isFinite(date)) return Math.max(0, date - now);
  }
  const match = /retry after (\d+(?:\.\d+)?)\s*s/i.exec(message);
  return match ? Number(match[1]) * 1000 : undefined;
}

/**
 * A failed answer of the service as an error of the taxonomy (SPEC.md Errors, API-NOTES.md §8),
 * so the runner retries by class: 408, 429 and 5xx are retried (429 waits), the rest are not.
 * Messages carry the service's own words, never the request's headers.
 */
export function serviceError(status: number, message: string, context: { what: string; retryAfter?: string; url?: string }): ScrapelineError {
  const said = message ? `: ${message}` : "";
  const url = context.url ? { url: context.url } : {};
  switch (true) {
    case status === 400:
      return new ScrapelineError("invalid-input", `the service refused ${context.what} as invalid${said}`, { status, ...url });
    case status === 401:
      return new ScrapelineError("invalid-input", `the service rejected the API key (HTTP 401)${said}. Check FIRECRAWL_API_KEY (or the variable named by engine.apiKeyEnv)`, { status, ...url });
    case status === 402:
      return new ScrapelineError("http-status", `the service says the team has not enough credits for ${context.what} (HTTP 402)${said}`, { status, ...url });
    case status === 403:
      return new ScrapelineError(
        "blocked",
        `the service refused ${context.what} (HTTP 403)${said}. When threatProtection is in the request, this happens when threat protection is not enabled for the team, when the organisation disabled request overrides, or when mode is off while threat protection is enforced`,
        { status, ...url },
      );
    case status === 404:
      return new ScrapelineError("http-status", `the service does not know ${context.what} (HTTP 404)${said}`, { status, ...url });
    case status === 408:
      return new ScrapelineError("timeout", `the service timed out on ${context.what} (HTTP 408)${said}`, { status, ...url });
    case status === 413:
      return new ScrapelineError("too-large", `the service refused ${context.what} as too large (HTTP 413)${said}`, { status, ...url });
    case status === 429: {
      const wait = retryAfterMs(context.retryAfter, message);
      return new ScrapelineError("rate-limited", `the service is rate limiting ${context.what} (HTTP 429)${said}`, { status, ...url, ...(wait !== undefined ? { retryAfterMs: wait } : {}) });
    }
    default:
      return new ScrapelineError("http-status", `the service answered HTTP ${status} to ${context.what}${said}`, { status, ...url });
  }
}
