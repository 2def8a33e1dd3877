import type { PagePayload, RunSummaryPayload } from "./payload.js";
import { BLOCKED_PAGE } from "./summary.js";

/** Lines of a diff kept in a readable notification; the JSON carries the whole (cut) diff. */
const TEXT_DIFF_LINES = 40;

/** Slack's and mail's text for a completed check: the counts, then each page worth telling. */
export function checkCompletedText(summary: RunSummaryPayload): string {
  const s = summary.summary;
  const lines = [`${summary.pipeline} (run ${summary.runId}, ${summary.status}): ${s.changed} changed, ${s.new} new, ${s.removed} removed, ${s.same} same, ${s.error} failed${s.blocked ? ` (${s.blocked} blocked)` : ""}`];
  for (const page of summary.pages) lines.push(`• ${page.changeStatus}: ${page.url}`, ...shortDiff(page.diff));
  for (const failure of summary.failures) lines.push(`• ${failure.kind === BLOCKED_PAGE ? "blocked" : "failed"}: ${failure.url}: ${failure.error}`);
  return lines.join("\n");
}

export function pageText(pipeline: string, page: PagePayload): string {
  return [`${pipeline}: ${page.changeStatus} ${page.url}`, ...shortDiff(page.diff)].join("\n");
}

export function failedText(summary: RunSummaryPayload): string {
  return [`${summary.pipeline}: run ${summary.runId} ${summary.status}`, ...brokenLines(summary), ...summary.failures.map((f) => `• ${f.url}: ${f.kind === BLOCKED_PAGE ? "blocked" : f.kind}: ${f.error}`)].join("\n");
}

/** "the recipe broke: products: markdown (line 12): …" for each broken expectation. */
export function brokenLines(summary: RunSummaryPayload): string[] {
  return (summary.brokenExpectations ?? []).map((b) => `• the recipe broke: ${b.stepId ?? "pipeline"}: ${b.name} (line ${b.line}): ${b.problems.join("; ")}${b.pages.length ? ` (${b.pages.join(", ")})` : ""}`);
}

function shortDiff(diff: string | undefined): string[] {
  if (!diff) return [];
  const lines = diff.split("\n").filter((line) => /^[+-](?![+-]{2})/.test(line));
  return lines.length > TEXT_DIFF_LINES ? [...lines.slice(0, TEXT_DIFF_LINES), `  … ${lines.length - TEXT_DIFF_LINES} more line(s)`] : lines;
}
