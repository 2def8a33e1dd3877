import type { SearchResultChange, Store, StoredSearchResult } from "../../core/index.js";

/** How one search step's results moved since the previous run of its query. */
export interface SearchStepChanges {
  stepId: string;
  /** The run compared with; null on the query's first run. */
  previousRunId: number | null;
  added: SearchResultChange[];
  removed: SearchResultChange[];
}

/** The search steps of a run with the results new and gone since the previous run of each. */
export function searchChanges(store: Store, runId: number): SearchStepChanges[] {
  const out: SearchStepChanges[] = [];
  for (const step of store.getSteps(runId)) {
    if (step.kind !== "search") continue;
    const raw = store.stepResult(runId, step.stepId);
    const changes = raw === undefined ? undefined : (JSON.parse(raw) as StoredSearchResult).changes;
    if (changes) out.push({ stepId: step.stepId, ...changes });
  }
  return out;
}
