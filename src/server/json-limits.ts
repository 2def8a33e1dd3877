import { ScrapelineError } from "../core/index.js";

/** Objects and arrays nested deeper than this are refused: nothing a request means needs more. */
export const MAX_JSON_DEPTH = 100;

/**
 * What JSON.parse accepts but no request can mean, as a 400 naming where it is: nesting deeper
 * than MAX_JSON_DEPTH (which would exhaust the stack of everything that reads the body after),
 * and numbers out of range (`1e999` parses to Infinity). Walks without recursion.
 */
export function checkJsonValue(root: unknown): void {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value: root, path: "", depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === "number" && !Number.isFinite(value)) {
      throw new ScrapelineError("invalid-input", `Bad request: ${path || "the body"}: the number is out of range (JSON numbers must be finite, at most about 1.8e308)`);
    }
    if (value === null || typeof value !== "object") continue;
    if (depth >= MAX_JSON_DEPTH) throw new ScrapelineError("invalid-input", `Bad request: the body is nested more than ${MAX_JSON_DEPTH} levels deep (at ${path})`);
    if (Array.isArray(value)) value.forEach((item, i) => stack.push({ value: item, path: `${path}[${i}]`, depth: depth + 1 }));
    else for (const [key, item] of Object.entries(value)) stack.push({ value: item, path: path ? `${path}.${key}` : key, depth: depth + 1 });
  }
}
