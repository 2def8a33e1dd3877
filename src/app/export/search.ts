import type { StoredSearchResult } from "../../core/index.js";

/** Whether a step's stored result is a search's (its data holds result lists by source). */
export function isSearchResult(result: unknown): result is StoredSearchResult {
  if (typeof result !== "object" || result === null) return false;
  const data = (result as { data?: unknown }).data;
  if (typeof data !== "object" || data === null || Array.isArray(data)) return false;
  const keys = Object.keys(data);
  return keys.length > 0 && keys.every((k) => (k === "web" || k === "news" || k === "images") && Array.isArray((data as Record<string, unknown>)[k]));
}

/** Rows of a search result for csv and jsonl: one per result, web then news then images, with its source. */
export function searchRows(result: StoredSearchResult): Array<Record<string, unknown>> {
  const rows: Array<Record<string, unknown>> = [];
  for (const source of ["web", "news", "images"] as const) {
    for (const item of result.data[source] ?? []) rows.push({ source, ...item });
  }
  return rows;
}
