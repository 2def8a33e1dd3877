import type { ServiceWebhookParts } from "../../core/index.js";
import { checkStatusOf } from "./check-status.js";
import { notificationUuid, type PagePayload, type RunSummaryPayload } from "./payload.js";

/**
 * The hosted service's webhook envelope for a run's notifications (a webhook channel with
 * `format: service`): monitor.page carries the page as GET /v2/monitor/{id}/checks/{checkId}
 * lists it, monitor.check.completed the check's status and summary, a failed run
 * monitor.check.failed with success false and the first error.
 */
export function pageEnvelope(summary: RunSummaryPayload, page: PagePayload): ServiceWebhookParts {
  const data = [{ url: page.url, status: page.changeStatus, visibility: page.visibility, previousScrapeAt: page.previousScrapeAt, ...(page.diff !== undefined ? { diff: page.diff } : {}) }];
  return { success: true, type: "monitor.page", id: summary.pipeline, webhookId: notificationUuid(summary, "monitor.page", `${page.stepId} ${page.url}`), data };
}

export function completedEnvelope(summary: RunSummaryPayload): ServiceWebhookParts {
  const data = { runId: summary.runId, status: checkStatusOf(summary.status, summary.summary), summary: summary.summary, startedAt: summary.startedAt, finishedAt: summary.finishedAt, creditsUsed: summary.credits };
  return { success: true, type: "monitor.check.completed", id: summary.pipeline, webhookId: notificationUuid(summary, "monitor.check.completed"), data };
}

export function failedEnvelope(summary: RunSummaryPayload): ServiceWebhookParts {
  const broke = summary.brokenExpectations?.[0];
  const error = broke ? `the recipe broke: ${broke.stepId ?? "pipeline"}: ${broke.name}: ${broke.problems.join("; ")}` : (summary.failures[0]?.error ?? `the run ${summary.status}`);
  return { success: false, type: "monitor.check.failed", id: summary.pipeline, webhookId: notificationUuid(summary, "failed"), data: { runId: summary.runId, status: summary.status, failures: summary.failures, ...(summary.brokenExpectations ? { expectations: summary.brokenExpectations } : {}) }, error };
}
