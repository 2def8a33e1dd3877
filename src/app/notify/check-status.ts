import type { CheckStatus, CheckSummary } from "../../core/index.js";

/** A finished run's check status, named as the service names them. */
export function checkStatusOf(runStatus: string, summary: CheckSummary): CheckStatus {
  const stored = summary.totalPages - summary.error;
  switch (runStatus) {
    case "succeeded":
      return summary.error > 0 ? "partial" : "completed";
    case "budget-exhausted":
      return stored > 0 ? "partial" : "skipped_budget";
    case "interrupted":
      return "interrupted";
    default:
      return stored > 0 ? "partial" : "failed";
  }
}
