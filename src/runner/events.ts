import type { ErrorKind, ExpectationVerdict } from "../core/index.js";

/** What the runner reports while it works; the CLI renders these as progress. */
export type RunEvent =
  | { type: "run-started"; runId: number; pipeline: string; /** The pipeline file, as given (expectations' positions are in it). */ file?: string; resumed: boolean }
  | { type: "step-started"; stepId: string; kind: string; total?: number }
  | { type: "step-skipped"; stepId: string; reason: string }
  /** A crawl's frontier moved: pages `found` so far (never more than `limit`), `limit` the most it visits, `done` the pages it finished (an earlier attempt's included). */
  | { type: "step-progress"; stepId: string; found: number; limit: number; done: number }
  | { type: "step-warning"; stepId: string; message: string }
  | { type: "step-finished"; stepId: string; status: "succeeded" | "failed" | "cancelled"; documents: number; failures: number; credits: number; error?: string; crawl?: { found: number; skippedByRobots: number; skippedByRules: number }; /** Failed only because expectations broke. */ cause?: "expectation"; expectations?: ExpectationVerdict }
  | { type: "document-stored"; stepId: string; url: string; statusCode: number; credits: number; /** The engine reported no figure: computed by the billing rules. */ estimated?: boolean; /** The page's own warning (Document.warning). */ warning?: string }
  /** A wait of more than a moment that holds a step up (a service's rate limit on a job's status). */
  | { type: "step-waiting"; stepId: string; waitMs: number; reason: string }
  | { type: "document-retried"; stepId: string; url: string; attempt: number; delayMs: number; reason: string }
  | { type: "document-failed"; stepId: string; url: string; kind: ErrorKind | "unknown"; reason: string }
  /** No page starts after this; `inFlight` pages already under way may finish and are stored. */
  | { type: "budget-exhausted"; spent: number; limit: number; needed: number; inFlight?: number }
  | { type: "run-finished"; runId: number; status: string; credits: number; /** Every failure was a broken expectation. */ cause?: "expectation"; /** The pipeline's own expectations. */ expectations?: ExpectationVerdict };

export type EventSink = (event: RunEvent) => void;
