import type { Diagnostic, ValidationIssue } from "./diagnostic.js";

/**
 * The error taxonomy. Every failure the tool reports carries one of these kinds, so callers
 * (the runner deciding retries, the CLI choosing an exit code) decide by class, never by message.
 */
export type ErrorKind =
  | "invalid-input" // a pipeline, option or argument that can never succeed as written
  | "network" // connection refused, reset, DNS failure
  | "timeout" // a deadline passed
  | "too-large" // a body over the size cap
  | "blocked" // refused by the private-network gate or threat protection
  | "blocked-page" // the site answered a block or challenge page (an anti-bot service) instead of content
  | "http-status" // the target answered with an error status
  | "bad-content" // a response that cannot be converted (corrupt PDF, undecodable body)
  | "unsupported" // a feature this engine does not provide (yet); the message says what to use
  | "rate-limited" // 429 whose wait exceeds the step's patience
  | "budget" // the run would spend more than budget.maxCredits
  | "cancelled" // interrupted by the user
  | "unauthorized" // a missing, unknown or revoked API key (serve)
  | "not-found" // a job or record that does not exist, or belongs to another team (serve)
  | "not-recorded" // a replay was asked for something its fixture does not hold
  | "not-stored" // a run made from a stored run (--from-run) asked for a page that run never fetched
  | "internal"; // a bug: reported with its stack

export interface ErrorDetails {
  cause?: unknown;
  /** The URL the failure is about. */
  url?: string;
  /** HTTP status, for http-status and rate-limited errors. */
  status?: number;
  /** How long the other side asked us to wait (Retry-After), in milliseconds. */
  retryAfterMs?: number;
  /** For invalid input: each problem as a validation issue (a 400's `details` on serve). */
  issues?: readonly ValidationIssue[];
}

export class ScrapelineError extends Error {
  readonly kind: ErrorKind;
  readonly url?: string;
  readonly status?: number;
  readonly retryAfterMs?: number;
  readonly issues?: readonly ValidationIssue[];
  constructor(kind: ErrorKind, message: string, details: ErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = "ScrapelineError";
    this.kind = kind;
    if (details.url !== undefined) this.url = details.url;
    if (details.status !== undefined) this.status = details.status;
    if (details.retryAfterMs !== undefined) this.retryAfterMs = details.retryAfterMs;
    if (details.issues !== undefined) this.issues = details.issues;
  }
}

export function isScrapelineError(error: unknown, kind?: ErrorKind): error is ScrapelineError {
  return error instanceof ScrapelineError && (kind === undefined || error.kind === kind);
}

/** A pipeline file (or several) that did not pass validation; carries every finding. */
export class InvalidPipelineError extends ScrapelineError {
  readonly diagnostics: readonly Diagnostic[];
  constructor(diagnostics: readonly Diagnostic[]) {
    const errors = diagnostics.filter((d) => d.severity === "error").length;
    super("invalid-input", `pipeline is invalid: ${errors} error${errors === 1 ? "" : "s"}`);
    this.name = "InvalidPipelineError";
    this.diagnostics = diagnostics;
  }
}
