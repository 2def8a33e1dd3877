/** json mode: which top-level fields of the extracted data changed. */
import type { JsonChanges } from "./types.js";

/** The key a whole value is reported under when either side is not a plain object. */
export const WHOLE_VALUE_KEY = "$";

/**
 * The top-level fields whose `JSON.stringify` differs (object keys compared in sorted order, so
 * key order alone is no change), each as `{ previous, current }`; a field missing on one side is
 * `undefined` there. When either side is not a plain object (an array, a primitive, null), the
 * whole values are compared and a difference is reported under `"$"`.
 */
export function jsonChanges(previous: unknown, current: unknown): JsonChanges {
  const changes: JsonChanges = {};
  if (!isPlainObject(previous) || !isPlainObject(current)) {
    if (stableStringify(previous) !== stableStringify(current)) changes[WHOLE_VALUE_KEY] = { previous, current };
    return changes;
  }
  const keys = new Set([...Object.keys(previous), ...Object.keys(current)]);
  for (const key of keys) {
    const before = Object.hasOwn(previous, key) ? previous[key] : undefined;
    const after = Object.hasOwn(current, key) ? current[key] : undefined;
    if (stableStringify(before) !== stableStringify(after)) changes[key] = { previous: before, current: after };
  }
  return changes;
}

/** `JSON.stringify` with every object's keys sorted; `undefined` for `undefined`. */
export function stableStringify(value: unknown): string | undefined {
  return JSON.stringify(value, (_key, inner: unknown) => (isPlainObject(inner) ? Object.fromEntries(Object.keys(inner).sort().map((key) => [key, inner[key]])) : inner));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
