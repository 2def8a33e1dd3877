import type { ErrorKind } from "../core/index.js";
import { isScrapelineError } from "../core/index.js";
import type { Reply } from "./router.js";

/** The HTTP status of each error kind: the one place errors become statuses. */
const STATUS: Record<ErrorKind, number> = {
  "invalid-input": 400,
  unsupported: 400,
  unauthorized: 401,
  blocked: 403,
  "not-found": 404,
  "not-recorded": 404,
  "not-stored": 404,
  timeout: 408,
  "rate-limited": 429,
  budget: 402,
  network: 500,
  "http-status": 500,
  "blocked-page": 500,
  "bad-content": 500,
  "too-large": 500,
  cancelled: 500,
  internal: 500,
};

/** Codes the service gives some failures (API-NOTES.md §8). */
const CODE: Partial<Record<ErrorKind, string>> = {
  "invalid-input": "BAD_REQUEST",
  timeout: "SCRAPE_TIMEOUT",
  network: "SCRAPE_SITE_ERROR",
  "http-status": "SCRAPE_SITE_ERROR",
  "blocked-page": "SCRAPE_SITE_ERROR",
  "bad-content": "SCRAPE_UNSUPPORTED_FILE_ERROR",
};

/**
 * A page action that failed (a click whose selector matches nothing, a script that throws): the
 * request's own doing, so a 400-class answer with the service's SCRAPE_ACTION_ERROR code and the
 * message that names the action ("action 2 of 3 (click "#x") failed: …"), not a 500 about the page.
 */
function isActionFailure(error: unknown): boolean {
  return isScrapelineError(error, "bad-content") && /^action \d+ of \d+ \(/.test(error.message);
}

export function statusOf(error: unknown): number {
  if (isActionFailure(error)) return 400;
  return isScrapelineError(error) ? STATUS[error.kind] : 500;
}

/** The message a client may see: ours as written, never an unexpected error's internals. */
export function messageOf(error: unknown): string {
  if (isScrapelineError(error) && error.kind !== "internal") return error.message;
  return "An unexpected error occurred.";
}

/** `{success: false, error}` with the status of the error's kind (and Retry-After on 429). */
export function errorReply(error: unknown, shape: "standard" | "bare" = "standard"): Reply {
  const status = statusOf(error);
  const headers: Record<string, string> = {};
  if (isScrapelineError(error) && error.retryAfterMs !== undefined) headers["retry-after"] = String(Math.ceil(error.retryAfterMs / 1000));
  const code = isActionFailure(error) ? "SCRAPE_ACTION_ERROR" : isScrapelineError(error) ? CODE[error.kind] : "UNKNOWN_ERROR";
  const body = shape === "bare" ? { error: messageOf(error) } : { success: false, ...(code ? { code } : {}), error: messageOf(error), ...detailsOf(error, status) };
  return { status, body, headers };
}

/**
 * A 400's `details`, as the service gives them (zod issues: code, path, message, …): the
 * validation's own issues, or one custom issue holding the message when the check had none.
 */
function detailsOf(error: unknown, status: number): { details?: readonly unknown[] } {
  if (status !== 400 || !isScrapelineError(error) || (error.kind !== "invalid-input" && error.kind !== "unsupported")) return {};
  return { details: error.issues ?? [{ code: "custom", path: [], message: error.message }] };
}

export const BAD_JSON: Reply = { status: 400, body: { success: false, code: "BAD_REQUEST_INVALID_JSON", error: "Bad request, malformed JSON" } };
