import type { ExtractResult } from "../../core/index.js";

/**
 * Rows of an extract result for csv and jsonl: the items of its data's array (the first
 * top-level array field, or the data itself when it is an array), each with the data's scalar
 * fields alongside; the data as one row when it holds no array.
 */
export function extractRows(result: ExtractResult): Array<Record<string, unknown>> {
  const data = result.data;
  if (Array.isArray(data)) return data.map((item) => (isObject(item) ? item : { value: item }));
  if (!isObject(data)) return data === undefined || data === null ? [] : [{ value: data }];
  const arrayKey = Object.keys(data).find((k) => Array.isArray(data[k]));
  if (arrayKey === undefined) return [data];
  const shared = Object.fromEntries(Object.entries(data).filter(([k, v]) => k !== arrayKey && !Array.isArray(v)));
  return (data[arrayKey] as unknown[]).map((item) => ({ ...shared, ...(isObject(item) ? prefixed(arrayKey, item) : { [arrayKey]: item }) }));
}

function prefixed(key: string, item: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(item).map(([k, v]) => [`${key}.${k}`, v]));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
