import { createHmac } from "node:crypto";
import type { NotifyConfig, NotifyEvent, Store } from "../core/index.js";
import { isScrapelineError } from "../core/index.js";
import { createFetchGate } from "../engines/local/index.js";

/** How often a summary is tried, and the first wait between tries (doubled each time). */
const ATTEMPTS = 3;
const FIRST_WAIT_MS = 500;
const TIMEOUT_MS = 10_000;
/** Diffs longer than this are cut in the summary (the database keeps them whole). */
const MAX_DIFF_CHARS = 20_000;

export interface NotifyOutcome {
  /** Whether the endpoint accepted the summary (2xx). */
  sent: boolean;
  /** Why nothing was sent when nothing needed to be. */
  skipped?: string;
  status?: number;
  attempts: number;
  error?: string;
}

export interface RunSummaryPayload {
  pipeline: string;
  runId: number;
  status: string;
  startedAt: string;
  finishedAt: string | null;
  credits: number;
  counts: Record<NotifyEvent, number>;
  pages: Array<{ stepId: string; url: string; changeStatus: string; visibility: string; previousScrapeAt: string | null; diff?: string }>;
  failures: Array<{ stepId: string; url: string; kind: string; error: string }>;
}

/** The summary of a run as posted: counts, the pages in a state the config listens to, failed pages. */
export function runSummary(store: Store, runId: number, config: NotifyConfig): RunSummaryPayload {
  const run = store.getRun(runId)!;
  const counts: Record<NotifyEvent, number> = { changed: 0, new: 0, removed: 0, hidden: 0, failed: 0 };
  const pages: RunSummaryPayload["pages"] = [];
  for (const { stepId, url, change } of store.pageChanges(runId)) {
    const events: NotifyEvent[] = [];
    if (change.changeStatus !== "same") events.push(change.changeStatus);
    if (change.visibility === "hidden") events.push("hidden");
    for (const event of events) counts[event]++;
    if (!events.some((e) => config.on.includes(e))) continue;
    const diff = change.diff?.text;
    pages.push({ stepId, url, changeStatus: change.changeStatus, visibility: change.visibility, previousScrapeAt: change.previousScrapeAt, ...(diff ? { diff: diff.length > MAX_DIFF_CHARS ? `${diff.slice(0, MAX_DIFF_CHARS)}\n… (cut)` : diff } : {}) });
  }
  const failures = store.failures(runId).map(({ stepId, url, kind, error }) => ({ stepId, url, kind, error }));
  counts.failed = failures.length;
  return {
    pipeline: run.pipelineName,
    runId,
    status: run.status,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    credits: run.creditsUsed,
    counts,
    pages,
    failures: config.on.includes("failed") ? failures : [],
  };
}

/** HMAC-SHA256 of the body with the secret, as sent in X-Scrapeline-Signature. */
export function signature(secret: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

/**
 * Posts the run's summary to the webhook when something the config listens to happened, through
 * the fetch gate, retrying with backoff. Never throws: the outcome says what happened.
 */
export async function notifyRun(store: Store, runId: number, config: NotifyConfig, options: { allowPrivateNetwork: boolean; sleep?: (ms: number) => Promise<void> }): Promise<NotifyOutcome> {
  const summary = runSummary(store, runId, config);
  if (!config.on.some((event) => summary.counts[event] > 0)) return { sent: false, skipped: `nothing ${config.on.join(", ")} in run ${runId}`, attempts: 0 };
  const body = JSON.stringify(summary);
  const headers: Record<string, string> = { "content-type": "application/json", "user-agent": "scrapeline-notify" };
  if (config.webhook.secret) headers["x-scrapeline-signature"] = signature(config.webhook.secret, body);
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const gate = createFetchGate({ allowPrivateNetwork: options.allowPrivateNetwork });
  let outcome: NotifyOutcome = { sent: false, attempts: 0 };
  try {
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      if (attempt > 1) await sleep(FIRST_WAIT_MS * 2 ** (attempt - 2));
      try {
        const response = await gate.fetch({ url: config.webhook.url, method: "POST", body, headers, timeoutMs: TIMEOUT_MS, maxBodyBytes: 64 * 1024 });
        outcome = { sent: response.status >= 200 && response.status < 300, status: response.status, attempts: attempt };
        if (outcome.sent) return outcome;
        outcome.error = `HTTP ${response.status}`;
        // Client errors other than 408/429 will not get better by asking again.
        if (response.status < 500 && response.status !== 408 && response.status !== 429) return outcome;
      } catch (error) {
        outcome = { sent: false, attempts: attempt, error: isScrapelineError(error) ? error.message : String(error) };
        if (isScrapelineError(error, "blocked") || isScrapelineError(error, "invalid-input")) return outcome;
      }
    }
    return outcome;
  } finally {
    await gate.close();
  }
}
