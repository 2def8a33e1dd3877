import type { SearchChanges, SearchResultChange, SearchResults, SearchSourceType, Store, StoredSearchResult } from "../../core/index.js";

/**
 * How a search's results moved since the last run of the same step that succeeded with the same
 * query: results new in this run and results gone since, each by source and URL (images by the
 * image). With no such run, every result is new and `previousRunId` is null.
 */
export function compareSearchResults(store: Store, pipelineName: string, stepId: string, runId: number, query: string, data: SearchResults): SearchChanges {
  const previous = store.previousStepRun(pipelineName, stepId, runId);
  const before = previous && sameQuery(previous.planJson, stepId, query) ? readResult(store.stepResult(previous.runId, stepId)) : undefined;
  const now = entries(data);
  if (!previous || !before) return { previousRunId: null, added: [...now.values()], removed: [] };
  const then = entries(before.data);
  return {
    previousRunId: previous.runId,
    added: [...now].filter(([key]) => !then.has(key)).map(([, change]) => change),
    removed: [...then].filter(([key]) => !now.has(key)).map(([, change]) => change),
  };
}

function entries(data: SearchResults): Map<string, SearchResultChange> {
  const out = new Map<string, SearchResultChange>();
  const add = (source: SearchSourceType, key: string | undefined, url: string, title: string) => {
    if (key) out.set(`${source} ${key}`, { source, url, title });
  };
  for (const r of data.web ?? []) add("web", r.url, r.url, r.title);
  for (const r of data.news ?? []) add("news", r.url, r.url, r.title);
  for (const r of data.images ?? []) add("images", r.imageUrl, r.url, r.title);
  return out;
}

function sameQuery(planJson: string, stepId: string, query: string): boolean {
  try {
    const plan = JSON.parse(planJson) as { steps?: Array<{ id?: string; kind?: string; body?: { query?: unknown } }> };
    const step = plan.steps?.find((s) => s.id === stepId);
    return step?.kind === "search" && step.body?.query === query;
  } catch {
    return false;
  }
}

export function readResult(raw: string | undefined): StoredSearchResult | undefined {
  if (raw === undefined) return undefined;
  try {
    const parsed = JSON.parse(raw) as StoredSearchResult;
    return typeof parsed === "object" && parsed !== null && typeof parsed.data === "object" ? parsed : undefined;
  } catch {
    return undefined;
  }
}
