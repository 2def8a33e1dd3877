import type { Path } from "./yaml-doc.js";

export const STEP_KINDS = ["scrape", "crawl", "map", "extract", "parse", "search", "interact", "agent"] as const;
export type StepKind = (typeof STEP_KINDS)[number];

/** Human names for a data path: the field ("actions[2].quality") and its step ("scrape step \"pricing\""). */
export function describePath(path: Path, data: unknown): { field: string; where: string } {
  if (path[0] === "steps" && typeof path[1] === "number") {
    const step = (data as { steps?: unknown[] } | null)?.steps?.[path[1]] as Record<string, unknown> | undefined;
    const id = typeof step?.id === "string" ? `"${step.id}"` : `#${path[1] + 1}`;
    const kind = path[2];
    if (typeof kind === "string" && (STEP_KINDS as readonly string[]).includes(kind)) {
      return { field: formatField(path.slice(3)), where: `${kind} step ${id}` };
    }
    return { field: formatField(path.slice(2)), where: `step ${id}` };
  }
  return { field: formatField(path), where: "the pipeline" };
}

export function formatField(path: Path): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else out += out === "" ? segment : `.${segment}`;
  }
  return out;
}

/** "field in where", or just "where" when the finding is about the step or pipeline itself. */
export function fieldIn(path: Path, data: unknown): string {
  const { field, where } = describePath(path, data);
  return field === "" ? where : `${field} in ${where}`;
}
