import type { RunTally } from "./progress.js";
import { table } from "./table.js";

/** Documents per step in the whole run (a resumed run's earlier attempts included), as the store holds them. */
export type StoredDocuments = Readonly<Record<string, number>>;

/**
 * The table printed when a run ends: one row per step, then the total. Documents are the run's
 * (as `runs` and `show` count them); a resumed run also says what this process added.
 */
export function summaryTable(tally: RunTally, status: string, credits: number, stored: StoredDocuments = {}): string {
  const header = ["step", "status", "documents", "failures", "retries", "credits", "duration"];
  const documents = (s: { id: string; done: number }) => Math.max(stored[s.id] ?? 0, s.done);
  const rows = [...tally.steps.values()].map((s) => [s.id, s.status, String(documents(s)), String(s.failed), String(s.retries), String(s.credits), s.finishedAt ? `${((s.finishedAt - s.startedAt) / 1000).toFixed(1)} s` : "-"]);
  const crawls = [...tally.steps.values()].flatMap((s) =>
    s.crawl ? [`${s.id}: found ${s.crawl.found}, crawled ${documents(s)}, skipped by robots.txt ${s.crawl.skippedByRobots}, skipped by rules ${s.crawl.skippedByRules}, failed ${s.failed}, ${s.credits} credit${s.credits === 1 ? "" : "s"}\n`] : [],
  );
  const total = [...tally.steps.values()].reduce((n, s) => n + documents(s), 0);
  const added = [...tally.steps.values()].reduce((n, s) => n + s.done, 0);
  const resumed = tally.resumed ? `run ${tally.runId ?? "?"} (resumed): ${total} document(s) in all, ${added} stored by this process\n` : "";
  const estimated = [...tally.steps.values()].reduce((n, s) => n + s.estimated, 0);
  const split = estimated > 0 ? ` (${credits - estimated} as billed by the service, ${estimated} estimated by the billing rules where it gave no figure)` : "";
  const warned = tally.warningsTotal > 0 ? `${tally.warningsTotal} warning${tally.warningsTotal === 1 ? "" : "s"}, printed above (scrapeline show lists them again)\n` : "";
  return `${table(header, rows, 2)}\n${crawls.join("")}${resumed}${warned}run ${tally.runId ?? "?"} ${status}: ${credits} credit${credits === 1 ? "" : "s"} used${split}\n`;
}

export function summaryJson(tally: RunTally, status: string, credits: number, stored: StoredDocuments = {}): string {
  return `${JSON.stringify(runSummary(tally, status, credits, stored), null, 2)}\n`;
}

/** The run summary `--json` prints and the reporters (junit, github) read. */
export function runSummary(tally: RunTally, status: string, credits: number, stored: StoredDocuments = {}) {
  return {
    runId: tally.runId,
    ...(tally.pipeline !== undefined ? { pipeline: tally.pipeline } : {}),
    ...(tally.file !== undefined ? { file: tally.file } : {}),
    status,
    ...(tally.resumed ? { resumed: true } : {}),
    ...(tally.cause ? { cause: tally.cause } : {}),
    steps: [...tally.steps.values()].map((s) => ({
      id: s.id,
      status: s.status,
      ...(s.cause ? { cause: s.cause } : {}),
      // documents: the run's; added: stored by this process (less, when it resumed an earlier attempt).
      documents: Math.max(stored[s.id] ?? 0, s.done),
      ...(tally.resumed ? { added: s.done } : {}),
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
