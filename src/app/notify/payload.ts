import { createHash } from "node:crypto";
import type { CheckSummary, NotifyEvent } from "../../core/index.js";

/** The JSON bodies webhooks receive. */
export interface PagePayload {
  stepId: string;
  url: string;
  changeStatus: string;
  visibility: string;
  previousScrapeAt: string | null;
  diff?: string;
}

export interface RunSummaryPayload {
  event: "monitor.check.completed";
  pipeline: string;
  runId: number;
  status: string;
  startedAt: string;
  finishedAt: string | null;
  credits: number;
  counts: Record<NotifyEvent, number>;
  /** The service's summary of a check. */
  summary: CheckSummary;
  /** The pages worth telling (in a state `on` lists, passing the rules). */
  pages: PagePayload[];
  failures: Array<{ stepId: string; url: string; kind: string; error: string }>;
  /** Expectations (`expect:`) the run broke: the recipe no longer works as written. */
  brokenExpectations?: BrokenExpectation[];
}

export interface BrokenExpectation {
  /** Absent for the pipeline's own expectations. */
  stepId?: string;
  name: string;
  line: number;
  column: number;
  problems: string[];
  pages: string[];
}

/**
 * The id of one notification in the scrapeline format: the same however often it is sent (each
 * try, a redelivery after a crash, one worked out again from the stored run), different for
 * every other notification (another run, event or page), so a receiver can drop a repeat.
 */
export function notificationId(summary: Pick<RunSummaryPayload, "pipeline" | "runId" | "startedAt">, event: string, page = ""): string {
  return createHash("sha256").update([summary.pipeline, summary.runId, summary.startedAt, event, page].join("\n")).digest("hex").slice(0, 32);
}

/** The same id as a UUID: the service envelope's webhookId. */
export function notificationUuid(summary: Pick<RunSummaryPayload, "pipeline" | "runId" | "startedAt">, event: string, page = ""): string {
  const hex = notificationId(summary, event, page);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
