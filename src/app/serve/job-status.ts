import type { Document, ExtractResult, ServeJob } from "../../core/index.js";
import type { RunsStore } from "../../store/index.js";
import { JOB_STEP_ID, type JobRunner } from "./jobs.js";

/** A page of a crawl or batch scrape's status (GET /v2/crawl/{id}). */
export interface JobStatusPage {
  status: "scraping" | "completed" | "failed" | "cancelled";
  completed: number;
  total: number;
  creditsUsed: number;
  expiresAt: string;
  data: Document[];
  /** The skip of the next page, when there is one. */
  nextSkip?: number;
  error?: string;
}

/** Status pages hold at most this many documents, and stop at about this much JSON. */
export const PAGE_DOCUMENTS = 100;
export const PAGE_BYTES = 10 * 1024 * 1024;
/** Job results are kept readable this long (reported as expiresAt). */
const EXPIRES_MS = 24 * 3600_000;

/** When a job's results stop being readable. */
export function expiresAt(job: ServeJob): string {
  return new Date(Date.parse(job.createdAt) + EXPIRES_MS).toISOString();
}

/** What the team was charged for a job so far. */
export function jobCredits(store: RunsStore, job: ServeJob): number {
  return job.runId === null ? 0 : (store.getRun(job.runId)?.creditsUsed ?? 0);
}

/** One page of a crawl or batch scrape's status, from `skip`, at most `limit` documents. */
export function statusPage(jobs: JobRunner, store: RunsStore, job: ServeJob, page: { skip?: number; limit?: number }): JobStatusPage {
  const skip = Math.max(0, Math.floor(page.skip ?? 0));
  const limit = Math.min(PAGE_DOCUMENTS, Math.max(1, Math.floor(page.limit ?? PAGE_DOCUMENTS)));
  const { completed, total } = jobs.progress(job);
  const data = jobs.documents(job, skip, limit, PAGE_BYTES);
  const out: JobStatusPage = { status: job.status, completed, total, creditsUsed: jobCredits(store, job), expiresAt: expiresAt(job), data };
  // Another page exists while more pages are expected than this one reaches; an empty page ends
  // the chain, so a client following `next` while the job runs does not spin on the same page.
  if (total > skip + data.length && data.length > 0) out.nextSkip = skip + data.length;
  if (job.status === "failed" && job.error) out.error = job.error;
  return out;
}

/** The pages of a crawl or batch scrape that failed. */
export function jobErrors(store: RunsStore, job: ServeJob): { errors: Array<{ id: string; timestamp: string; url: string; code: string; error: string }>; robotsBlocked: string[] } {
  const failures = job.runId === null ? [] : store.failures(job.runId);
  return { errors: failures.map((f, i) => ({ id: `${job.id}-${i}`, timestamp: f.failedAt, url: f.url, code: f.kind, error: f.error })), robotsBlocked: [] };
}

/**
 * An extract job's answer: processing while it runs, then the finished extract. The status is the
 * job's stored status, and creditsUsed what the team was charged for the job (its pages and its
 * model tokens), the same figure token usage counts.
 */
export function extractReply(store: RunsStore, job: ServeJob): ExtractResult & { expiresAt: string } | { success: boolean; status: "processing"; data: unknown[]; expiresAt: string } {
  const expires = expiresAt(job);
  if (job.status === "scraping") return { success: true, status: "processing", data: [], expiresAt: expires };
  const raw = job.runId === null ? undefined : store.stepResult(job.runId, JOB_STEP_ID);
  const stored = raw === undefined ? undefined : (JSON.parse(raw) as ExtractResult);
  const creditsUsed = jobCredits(store, job);
  const tokensUsed = stored?.tokensUsed ?? 0;
  if (job.status === "completed" && stored) return { ...stored, success: true, status: "completed", creditsUsed, expiresAt: expires };
  const error = job.status === "cancelled" ? "the extract was cancelled" : (stored?.error ?? job.error ?? (job.runId === null ? undefined : store.getSteps(job.runId)[0]?.error) ?? "the extract failed");
  const { success: _s, status: _st, error: _e, ...rest } = stored ?? { data: [] };
  return { ...rest, success: false, status: job.status === "cancelled" ? "cancelled" : "failed", data: stored?.data ?? [], error, tokensUsed, creditsUsed, expiresAt: expires };
}
