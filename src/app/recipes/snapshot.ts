import type { Document } from "../../core/index.js";
import { sortedJson } from "../../engines/replay/index.js";
import { openStore } from "../common/index.js";

/** Fields of a stored page that differ between two runs of the same pages: when and under which id it was scraped, the cache. */
const VOLATILE_METADATA = ["scrapeId", "cacheState", "cachedAt"];
/** Fields of a step's stored result that name its job or when it expires. */
const VOLATILE_RESULT = ["id", "expiresAt"];

/**
 * What a run extracted, for a snapshot: each step's pages by URL and its result (an extract's
 * data, a search's results), keys sorted, without ids, times or cache state.
 */
export function runSnapshot(db: string, runId: number): string {
  const store = openStore(db);
  try {
    const steps: Record<string, { documents: Record<string, unknown>; result?: unknown }> = {};
    for (const step of store.getSteps(runId)) steps[step.stepId] = { documents: {} };
    for (const page of store.documents(runId)) {
      const entry = (steps[page.stepId] ??= { documents: {} });
      entry.documents[page.url] = stableDocument(page.document);
    }
    for (const [stepId, entry] of Object.entries(steps)) {
      const raw = store.stepResult(runId, stepId);
      if (raw !== undefined) entry.result = withoutKeys(JSON.parse(raw), VOLATILE_RESULT);
    }
    return sortedJson(steps);
  } finally {
    store.close();
  }
}

/** A stored page without what differs between two runs of the same page (scrape id, cache state, the previous scrape's time). */
export function stableDocument(document: Document): unknown {
  const copy = structuredClone(document);
  copy.metadata = withoutKeys(copy.metadata, VOLATILE_METADATA) as Document["metadata"];
  if (copy.changeTracking) return { ...copy, changeTracking: withoutKeys(copy.changeTracking, ["previousScrapeAt"]) };
  return copy;
}

function withoutKeys(value: unknown, keys: readonly string[]): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => !keys.includes(key)));
}
