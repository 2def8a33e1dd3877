import type { NotifyEvent, NotifyRules } from "../../core/index.js";

/** A page of a run as the rules see it. */
export interface PageFacts {
  changeStatus: "new" | "same" | "changed" | "removed";
  visibility: "visible" | "hidden";
  /** Unified diff text (git-diff mode), when there is one. */
  diff?: string;
  /** The page's markdown, read only when a rule needs it (new pages and keywords). */
  markdown?: () => string | undefined;
  /** The page's json data now and in the previous run, read only for a threshold. */
  json?: () => { current: unknown; previous: unknown };
}

/** The page states a page is in: its change status (unless same) and hidden. */
export function pageEvents(page: Pick<PageFacts, "changeStatus" | "visibility">): NotifyEvent[] {
  const events: NotifyEvent[] = [];
  if (page.changeStatus !== "same") events.push(page.changeStatus);
  if (page.visibility === "hidden") events.push("hidden");
  return events;
}

/** Lines a diff added and removed, without its headers and hunk marks. */
export function diffLines(diff: string): { added: string[]; removed: string[] } {
  const added: string[] = [];
  const removed: string[] = [];
  for (const line of diff.split("\n")) {
    if (line.startsWith("+++") || line.startsWith("---")) continue;
    if (line.startsWith("+")) added.push(line.slice(1));
    else if (line.startsWith("-")) removed.push(line.slice(1));
  }
  return { added, removed };
}

/**
 * Whether a page is worth telling: it is in a state `on` lists, and every rule given holds.
 * addedOnly: it gained lines that are not just moved (removed pages never count); ignore: lines
 * matching these patterns are not a change; keywords: the added text names one; threshold: a
 * number at the field fell by at least dropPercent since the previous run.
 */
export function worthTelling(page: PageFacts, on: readonly NotifyEvent[], rules: NotifyRules): boolean {
  if (!pageEvents(page).some((event) => on.includes(event))) return false;
  const ignore = rules.ignore.map((pattern) => new RegExp(pattern));
  const kept = (lines: string[]) => lines.filter((line) => line.trim() !== "" && !ignore.some((re) => re.test(line)));
  let added: string[] | undefined;
  if (page.changeStatus === "changed" && page.diff !== undefined) {
    const lines = diffLines(page.diff);
    added = kept(lines.added);
    const removed = kept(lines.removed);
    if (added.length === 0 && removed.length === 0) return false;
    if (rules.addedOnly) {
      const before = new Set(removed.map((line) => line.trim()));
      added = added.filter((line) => !before.has(line.trim()));
      if (added.length === 0) return false;
    }
  } else if (page.changeStatus === "new") {
    added = kept((page.markdown?.() ?? "").split("\n"));
  } else if (page.changeStatus === "removed" || page.visibility === "hidden") {
    if (rules.addedOnly || rules.keywords.length > 0) return false;
    added = [];
  }
  if (rules.keywords.length > 0) {
    const text = (added ?? []).join("\n").toLowerCase();
    if (!rules.keywords.some((keyword) => text.includes(keyword.toLowerCase()))) return false;
  }
  if (rules.threshold) {
    if (!page.json) return false;
    const { current, previous } = page.json();
    if (!droppedBy(valuesAt(previous, rules.threshold.field), valuesAt(current, rules.threshold.field), rules.threshold.dropPercent)) return false;
  }
  return true;
}

/** The values at a path such as products[].price: dots for keys, [] for every item of a list. */
export function valuesAt(data: unknown, field: string): unknown[] {
  let values: unknown[] = [data];
  for (const part of field.split(".")) {
    const each = part.endsWith("[]");
    const key = each ? part.slice(0, -2) : part;
    const next: unknown[] = [];
    for (const value of values) {
      if (typeof value !== "object" || value === null || Array.isArray(value)) continue;
      const child = (value as Record<string, unknown>)[key];
      if (each) {
        if (Array.isArray(child)) next.push(...child);
      } else if (child !== undefined) next.push(child);
    }
    values = next;
  }
  return values;
}

/** Whether any number fell by at least `percent` from before to after, item by item. */
export function droppedBy(before: unknown[], after: unknown[], percent: number): boolean {
  const n = Math.min(before.length, after.length);
  for (let i = 0; i < n; i++) {
    const was = toNumber(before[i]);
    const now = toNumber(after[i]);
    if (was === undefined || now === undefined || was <= 0) continue;
    if (((was - now) / was) * 100 >= percent) return true;
  }
  return false;
}

function toNumber(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string") {
    const n = Number(value.replace(/[^\d.-]/g, ""));
    return value.trim() !== "" && Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}
