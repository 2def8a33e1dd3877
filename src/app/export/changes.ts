import type { ChangeTrackingResult, SnapshotRecord } from "../../core/index.js";
import { ScrapelineError } from "../../core/index.js";
import { gitDiff } from "../../changes/index.js";
import { resolveRunId } from "./history.js";
import { searchChanges, type SearchStepChanges } from "./search-changes.js";
import { storedPageUrl } from "./snapshot-url.js";
import { openExistingRunStore } from "../common/index.js";

export interface PageChange {
  stepId: string;
  url: string;
  changeStatus: ChangeTrackingResult["changeStatus"];
  visibility: ChangeTrackingResult["visibility"];
  previousScrapeAt: string | null;
  diff?: string;
}

export interface RunChanges {
  runId: number;
  /** Tracked pages of the run. */
  tracked: number;
  /** Those that are not the same, or were not found by their crawl (hidden). */
  pages: PageChange[];
  counts: Record<"new" | "same" | "changed" | "removed" | "hidden", number>;
  /** Search steps: results new and gone since the previous run of the same query. */
  searches: SearchStepChanges[];
}

/** What changed in a run: every tracked page that is new, changed, removed or hidden. */
export function runChanges(db: string, run?: string | number): RunChanges {
  const store = openExistingRunStore(db);
  try {
    const runId = resolveRunId(store, run);
    const all = store.pageChanges(runId);
    const counts = { new: 0, same: 0, changed: 0, removed: 0, hidden: 0 };
    const pages: PageChange[] = [];
    for (const { stepId, url, change } of all) {
      counts[change.changeStatus]++;
      if (change.visibility === "hidden") counts.hidden++;
      if (change.changeStatus === "same" && change.visibility === "visible") continue;
      pages.push({ stepId, url, changeStatus: change.changeStatus, visibility: change.visibility, previousScrapeAt: change.previousScrapeAt, ...(change.diff ? { diff: change.diff.text } : {}) });
    }
    return { runId, tracked: all.length, pages, counts, searches: searchChanges(store, runId) };
  } finally {
    store.close();
  }
}

export interface HistoryEntry {
  version: number;
  statusCode: number | null;
  firstSeenAt: string;
  firstRunId: number | null;
  lastSeenAt: string;
  lastRunId: number | null;
  fingerprint: string;
}

/** The versions of a page (URL and tag), oldest first; a page with none is an error, as for pageDiff. */
export function pageHistory(db: string, given: string, tag: string | null = null): HistoryEntry[] {
  const store = openExistingRunStore(db);
  try {
    const url = storedPageUrl(store, given, tag);
    const versions = store.snapshots(url, tag);
    if (versions.length === 0) throw noSnapshots(url, tag);
    return versions.map(({ version, statusCode, firstSeenAt, firstRunId, lastSeenAt, lastRunId, fingerprint }) => ({ version, statusCode, firstSeenAt, firstRunId, lastSeenAt, lastRunId, fingerprint }));
  } finally {
    store.close();
  }
}

export interface PageDiff {
  url: string;
  tag: string | null;
  from: HistoryEntry;
  to: HistoryEntry;
  /** Unified diff of the markdown; empty when the two versions are the same. */
  text: string;
}

/**
 * The diff between two versions of a page: by default the last two; `from`/`to` name runs, and
 * pick the version that was current in that run.
 */
export function pageDiff(db: string, given: string, options: { tag?: string | null; from?: number; to?: number } = {}): PageDiff {
  const tag = options.tag ?? null;
  const store = openExistingRunStore(db);
  try {
    const url = storedPageUrl(store, given, tag);
    const versions = store.snapshots(url, tag);
    const label = tag === null ? url : `${url} (tag ${tag})`;
    if (versions.length === 0) throw noSnapshots(url, tag);
    const at = (run: number, name: string) => {
      const found = versionAt(versions, run);
      if (!found) throw new ScrapelineError("invalid-input", `${label} had no snapshot yet in run ${run} (--${name})`);
      return found;
    };
    const to = options.to === undefined ? versions[versions.length - 1]! : at(options.to, "to");
    const from = options.from === undefined ? (versions[versions.indexOf(to) - 1] ?? to) : at(options.from, "from");
    const text = from.id === to.id ? "" : gitDiff(store.snapshotMarkdown(from), store.snapshotMarkdown(to)).text;
    return { url, tag, from: entry(from), to: entry(to), text };
  } finally {
    store.close();
  }
}

function noSnapshots(url: string, tag: string | null): ScrapelineError {
  return new ScrapelineError("invalid-input", `no snapshots of ${tag === null ? url : `${url} (tag ${tag})`}; run a pipeline with the changeTracking format first`);
}

/** The version current in `runId`: the newest one first seen in that run or before. */
function versionAt(versions: SnapshotRecord[], runId: number): SnapshotRecord | undefined {
  let found: SnapshotRecord | undefined;
  for (const v of versions) if ((v.firstRunId ?? 0) <= runId) found = v;
  return found;
}

function entry({ version, statusCode, firstSeenAt, firstRunId, lastSeenAt, lastRunId, fingerprint }: SnapshotRecord): HistoryEntry {
  return { version, statusCode, firstSeenAt, firstRunId, lastSeenAt, lastRunId, fingerprint };
}
