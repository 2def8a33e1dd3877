import type { SearchResultChange, StoredSearchResult } from "../core/index.js";

/** "find: search, web: 10 result(s), news: 3 result(s), 2 credit(s); since run 4: 1 new, 2 gone" — a search step's result in a line. */
export function searchLine(stepId: string, result: StoredSearchResult): string {
  const lists = (["web", "news", "images"] as const).filter((s) => result.data[s] !== undefined).map((s) => `${s}: ${result.data[s]!.length} result(s)`);
  const changes = result.changes;
  const moved = changes ? (changes.previousRunId === null ? "; first run of this query" : `; since run ${changes.previousRunId}: ${changes.added.length} new, ${changes.removed.length} gone`) : "";
  return `${stepId}: search, ${lists.join(", ") || "no results"}, ${result.creditsUsed} credit(s)${moved}${result.warning ? `; warning: ${result.warning}` : ""}`;
}

/** A search step's results new and gone since the previous run of its query, for `changes`. */
export function searchChangeSummary(runId: number, changes: { stepId: string; previousRunId: number | null; added: SearchResultChange[]; removed: SearchResultChange[] }): string {
  if (changes.previousRunId === null) return `\nrun ${runId}, search [${changes.stepId}]: first run of this query, ${changes.added.length} result(s)\n`;
  const head = `\nrun ${runId}, search [${changes.stepId}] since run ${changes.previousRunId}: ${changes.added.length} new, ${changes.removed.length} removed result(s)\n`;
  const line = (status: string, c: SearchResultChange) => `${status.padEnd(8)} ${c.source} ${c.url}${c.title ? `  ${c.title}` : ""}\n`;
  return head + changes.added.map((c) => line("new", c)).join("") + changes.removed.map((c) => line("removed", c)).join("");
}
