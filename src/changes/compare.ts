/**
 * The change decision: a page against its previous snapshot, following the service
 * (API-NOTES.md §2) except that normalized texts are compared line by line, so moving lines
 * around is a change (the service sorts the characters and would call it "same").
 */
import type { ChangeTrackingResult } from "../core/index.js";
import { gitDiff } from "./git-diff.js";
import { fingerprint } from "./hash.js";
import { jsonChanges } from "./json-diff.js";
import type { CompareInput, GitDiff } from "./types.js";

/** A `ChangeTrackingResult` whose `diff`, when present, has its structure typed. */
export type Comparison = ChangeTrackingResult & { diff?: GitDiff };

/** Statuses that mean the page is gone. */
export function isGoneStatus(statusCode: number | undefined): boolean {
  return statusCode === 404 || statusCode === 410;
}

/**
 * Decides `changeStatus`, in this order: no previous snapshot → `new`; current status 404 or
 * 410 → `removed`; the previous snapshot was gone and the page is back → `changed`; equal
 * fingerprints (normalized sha256) → `same`; otherwise `changed`. Only a `changed` result
 * carries `diff` (git-diff mode, over the raw markdown) and `json` (json mode, when extracted
 * data is given).
 */
export function compare(input: CompareInput): Comparison {
  const { previous, current } = input;
  const result: Comparison = {
    previousScrapeAt: previous?.scrapedAt ?? null,
    changeStatus: "new",
    visibility: input.visibility ?? "visible",
  };
  if (!previous) return result;
  if (isGoneStatus(current.statusCode)) result.changeStatus = "removed";
  else if (isGoneStatus(previous.statusCode)) result.changeStatus = "changed";
  else result.changeStatus = fingerprint(previous.markdown, input.normalize) === fingerprint(current.markdown, input.normalize) ? "same" : "changed";
  if (result.changeStatus !== "changed") return result;
  if (input.modes.includes("git-diff")) result.diff = gitDiff(previous.markdown, current.markdown);
  if (input.modes.includes("json") && input.extracted) result.json = jsonChanges(input.extracted.previous, input.extracted.current);
  return result;
}
