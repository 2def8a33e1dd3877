import { isScrapelineError } from "../core/index.js";
import type { RetryPolicy } from "../core/index.js";

export type Verdict =
  | { action: "retry"; reason: string }
  | { action: "wait"; reason: string; waitMs: number } // rate limited: wait, attempt not spent
  | { action: "fail"; reason: string };

const RETRYABLE_STATUS = new Set([408, 425, 429, 500, 502, 503, 504]);

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUS.has(status) || (status >= 500 && status <= 599);
}

/**
 * What to do after a failed attempt, decided by the error's class: network and timeout errors
 * and retryable statuses are retried; 429 waits for Retry-After without spending an attempt;
 * everything else (other 4xx, a redirect loop or too many redirects — an http-status with the
 * 3xx — invalid input, blocked, a block page, budget) fails at once.
 */
export function classify(error: unknown): Verdict {
  if (!isScrapelineError(error)) return { action: "fail", reason: error instanceof Error ? error.message : String(error) };
  switch (error.kind) {
    case "network":
    case "timeout":
      return { action: "retry", reason: error.message };
    case "http-status":
    case "rate-limited": {
      const status = error.status ?? 0;
      if (status === 429 || error.kind === "rate-limited") return { action: "wait", reason: error.message, waitMs: error.retryAfterMs ?? -1 };
      if (isRetryableStatus(status)) return { action: "retry", reason: error.message };
      return { action: "fail", reason: error.message };
    }
    case "blocked-page":
      // The site's anti-bot wall answers the same way again, whatever its status: `proxy: auto`
      // (in the engine) is what tries another way, through the enhanced proxy.
      return { action: "fail", reason: error.message };
    default:
      return { action: "fail", reason: error.message };
  }
}

/** Exponential backoff with full jitter: a random delay in [0, min(max, initial·2^(attempt-1))]. */
export function backoffMs(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}
