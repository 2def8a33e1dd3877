import type { RunTally } from "./progress.js";
import { table } from "./table.js";

/** The table printed when a run ends: one row per step, then the total. */
export function summaryTable(tally: RunTally, status: string, credits: number): string {
  const header = ["step", "status", "documents", "failures", "retries", "credits", "duration"];
  const rows = [...tally.steps.values()].map((s) => [s.id, s.status, String(s.done), String(s.failed), String(s.retries), String(s.credits), s.finishedAt ? `${((s.finishedAt - s.startedAt) / 1000).toFixed(1)} s` : "-"]);
  const crawls = [...tally.steps.values()].flatMap((s) =>
    s.crawl ? [`${s.id}: found ${s.crawl.found}, crawled ${s.done}, skipped by robots.txt ${s.crawl.skippedByRobots}, skipped by rules ${s.crawl.skippedByRules}, failed ${s.failed}, ${s.credits} credit${s.credits === 1 ? "" : "s"}\n`] : [],
  );
  const estimated = [...tally.steps.values()].reduce((n, s) => n + s.estimated, 0);
  const split = estimated > 0 ? ` (${credits - estimated} as billed by the service, ${estimated} estimated by the billing rules where it gave no figure)` : "";
  const warned = tally.warningsTotal > 0 ? `${tally.warningsTotal} warning${tally.warningsTotal === 1 ? "" : "s"}, printed above (scrapeline show lists them again)\n` : "";
  return `${table(header, rows, 2)}\n${crawls.join("")}${warned}run ${tally.runId ?? "?"} ${status}: ${credits} credit${credits === 1 ? "" : "s"} used${split}\n`;
}

export function summaryJson(tally: RunTally, status: string, credits: number): string {
  return `${JSON.stringify(runSummary(tally, status, credits), null, 2)}\n`;
}

/** The run summary `--json` prints and the reporters (junit, github) read. */
export function runSummary(tally: RunTally, status: string, credits: number) {
  return {
    runId: tally.runId,
    ...(tally.pipeline !== undefined ? { pipeline: tally.pipeline } : {}),
    ...(tally.file !== undefined ? { file: tally.file } : {}),
    status,
    ...(tally.cause ? { cause: tally.cause } : {}),
    steps: [...tally.steps.values()].map((s) => ({
      id: s.id,
      status: s.status,
      ...(s.cause ? { cause: s.cause } : {}),
      documents: s.done,
      failed: s.failed,
      retries: s.retries,
      credits: s.credits,
      ...(s.finishedAt ? { durationMs: s.finishedAt - s.startedAt } : {}),
      ...(s.estimated ? { estimatedCredits: s.estimated } : {}),
      ...(s.crawl ? { crawl: s.crawl } : {}),
      ...(s.error ? { error: s.error } : {}),
      ...(s.expectations ? { expectations: s.expectations } : {}),
    })),
    ...(tally.expectations ? { expectations: tally.expectations } : {}),
    credits,
    // Why pages failed, so a script need not ask again: the first FAILED_PAGES_SHOWN, and how many in all.
    failedPages: tally.failedPages,
    failedPagesTotal: tally.failedPagesTotal,
    warnings: tally.warnings,
    warningsTotal: tally.warningsTotal,
  };
}

export type RunSummary = ReturnType<typeof runSummary>;
