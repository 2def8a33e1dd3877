/** One page's (or one chunk's) data, with where it came from. */
export interface Part {
  url: string;
  data: unknown;
}

export interface Merged {
  data: unknown;
  /** Top-level fields and array items (`field[i]`) → the URLs they came from. */
  sources: Record<string, string[]>;
  /** Fields where later parts disagreed with the value kept. */
  conflicts: string[];
}

/**
 * Merges extracted data deterministically, in the order given: arrays are concatenated and
 * de-duplicated, objects merged field by field, and a scalar comes from the first part that has
 * one (a later, different value is recorded as a conflict).
 */
export function mergeParts(parts: readonly Part[]): Merged {
  const sources: Record<string, string[]> = {};
  const conflicts: string[] = [];
  let data: unknown = undefined;
  for (const part of parts) {
    if (isEmpty(part.data)) continue;
    data = mergeValue(data, part.data, "", part.url, { sources, conflicts }, 0);
  }
  return { data: data ?? {}, sources, conflicts };
}

interface Tally {
  sources: Record<string, string[]>;
  conflicts: string[];
}

function mergeValue(into: unknown, value: unknown, path: string, url: string, tally: Tally, depth: number): unknown {
  if (isEmpty(value)) return into;
  if (Array.isArray(value)) {
    const list = Array.isArray(into) ? into : into === undefined ? [] : [into];
    const seen = new Set(list.map(stable));
    for (const element of value) {
      if (isEmpty(element)) continue;
      const key = stable(element);
      if (seen.has(key)) {
        if (depth <= 1) note(tally, `${path}[${list.findIndex((e) => stable(e) === key)}]`, url);
        continue;
      }
      seen.add(key);
      list.push(element);
      if (depth <= 1) note(tally, `${path}[${list.length - 1}]`, url);
    }
    return list;
  }
  if (isObject(value)) {
    const target: Record<string, unknown> = isObject(into) ? into : {};
    for (const [key, v] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key;
      const before = target[key];
      const merged = mergeValue(before, v, at, url, tally, depth + 1);
      if (merged !== undefined) target[key] = merged;
      if (depth === 0 && !isEmpty(v) && !Array.isArray(v)) note(tally, key, url);
    }
    return target;
  }
  if (into === undefined || isEmpty(into)) return value;
  if (stable(into) !== stable(value)) tally.conflicts.push(`${path || "(value)"}: kept ${JSON.stringify(into)}, ${url} says ${JSON.stringify(value)}`);
  return into;
}

function note(tally: Tally, key: string, url: string): void {
  const list = (tally.sources[key] ??= []);
  if (!list.includes(url)) list.push(url);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0) || (isObject(value) && Object.keys(value).length === 0);
}

/** JSON with object keys sorted, so equal values compare equal whatever their key order. */
export function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(",")}]`;
  if (isObject(value)) return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${stable(value[k])}`).join(",")}}`;
  return JSON.stringify(value) ?? "null";
}
