import type { CheckSummary, NotifyEvent } from "../core/index.js";

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
