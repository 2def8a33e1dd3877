/** What a request's header values are stored as: the names stay on record, the values (tokens, cookies) do not. */
export const NOT_STORED = "[not stored]";

/**
 * A copy of a serve job's pipeline fit to store with its run: every `headers` object (a scrape's,
 * a crawl's or a search's scrapeOptions) keeps its names with NOT_STORED for each value, since
 * they carry the client's credentials for the site. The job itself runs with the real values.
 */
export function withoutHeaderValues<T>(value: T): T {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== "object") return node;
    return Object.fromEntries(
      Object.entries(node).map(([key, item]) => [key, key === "headers" && item !== null && typeof item === "object" && !Array.isArray(item) ? Object.fromEntries(Object.keys(item).map((name) => [name, NOT_STORED])) : walk(item)]),
    );
  };
  return walk(value) as T;
}

/** Whether a stored pipeline had header values left out (NOT_STORED): it cannot run again as it was sent. */
export function leftOutHeaderValues(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(leftOutHeaderValues);
  if (value === null || typeof value !== "object") return false;
  return Object.entries(value).some(([key, item]) =>
    key === "headers" && item !== null && typeof item === "object" && !Array.isArray(item) ? Object.values(item).includes(NOT_STORED) : leftOutHeaderValues(item),
  );
}

/** A pipeline's `headers` objects, in the order withoutHeaderValues walks them. */
export function headerObjects(value: unknown): Array<Record<string, unknown>> {
  if (Array.isArray(value)) return value.flatMap(headerObjects);
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, item]) => (isHeaders(key, item) ? [item] : headerObjects(item)));
}

/**
 * A stored pipeline with its header values given back: the i-th `headers` object (in the order
 * headerObjects lists them) takes the values of `values[i]` where it holds NOT_STORED.
 */
export function withHeaderValues<T>(stored: T, values: ReadonlyArray<Record<string, unknown>>): T {
  let at = 0;
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== "object") return node;
    return Object.fromEntries(
      Object.entries(node).map(([key, item]) => {
        if (!isHeaders(key, item)) return [key, walk(item)];
        const given = values[at++] ?? {};
        return [key, Object.fromEntries(Object.entries(item).map(([name, value]) => [name, value === NOT_STORED && name in given ? given[name] : value]))];
      }),
    );
  };
  return walk(stored) as T;
}

const isHeaders = (key: string, item: unknown): item is Record<string, unknown> => key === "headers" && item !== null && typeof item === "object" && !Array.isArray(item);

/** Whether a request has no header values to leave out when it is stored: stored, it is whole (another process may run it). */
export function storedWhole(value: unknown): boolean {
  return JSON.stringify(value) === JSON.stringify(withoutHeaderValues(value));
}
