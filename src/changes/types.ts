/**
 * Types of the change-tracking module: the inputs of `compare` and the structured diff that
 * git-diff mode produces (the shape of the npm parse-diff package, as the service returns it).
 */
import type { ChangeTrackingMode } from "../core/index.js";

/** A named normalizer; see normalize.ts for what each one does. */
export type Normalizer = "whitespace" | "volatile" | "iframe-links";

/** Which normalizers run, in which order, and the patterns the `volatile` one removes. */
export interface NormalizeOptions {
  /** Applied in the order given. Default: `iframe-links`, `volatile`, `whitespace`. */
  normalizers?: Normalizer[];
  /** Regular expression sources (no slashes, no flags) whose every match is removed. */
  volatile?: string[];
}

/** The stored snapshot a page is compared with. */
export interface PreviousSnapshot {
  markdown: string;
  statusCode?: number;
  /** ISO timestamp of the scrape that produced the snapshot. */
  scrapedAt: string;
}

/** The page as scraped now. */
export interface CurrentPage {
  markdown: string;
  statusCode: number;
}

/** Everything `compare` decides from. */
export interface CompareInput {
  /** Absent when the URL (and tag) has no snapshot yet. */
  previous?: PreviousSnapshot;
  current: CurrentPage;
  modes: ChangeTrackingMode[];
  /** `hidden` for a page a previous crawl had and this crawl did not find. Default `visible`. */
  visibility?: "visible" | "hidden";
  normalize?: NormalizeOptions;
  /** For json mode: the data extracted from the previous and the current markdown. */
  extracted?: { previous: unknown; current: unknown };
}

/** A line present in both texts. `ln1`/`ln2` are its numbers in the previous/current text. */
export interface NormalChange {
  type: "normal";
  normal: true;
  ln1: number;
  ln2: number;
  content: string;
}

/** A line only in the current text; `ln` is its number there. */
export interface AddChange {
  type: "add";
  add: true;
  ln: number;
  content: string;
}

/** A line only in the previous text; `ln` is its number there. */
export interface DelChange {
  type: "del";
  del: true;
  ln: number;
  content: string;
}

/** One line of a chunk; `content` keeps its leading ` `, `+` or `-`. */
export type DiffChange = NormalChange | AddChange | DelChange;

/** A hunk: `content` is its `@@ -a,b +c,d @@` header. */
export interface DiffChunk {
  content: string;
  changes: DiffChange[];
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
}

/** The one file of a two-text diff. */
export interface DiffFile {
  chunks: DiffChunk[];
  deletions: number;
  additions: number;
  from: string;
  to: string;
}

/** `changeTracking.diff` in git-diff mode. */
export interface GitDiff {
  /** A unified diff with `--- previous` / `+++ current` headers. */
  text: string;
  json: { files: DiffFile[] };
}

/** json mode: the top-level fields whose values differ. A missing field is `undefined`. */
export type JsonChanges = Record<string, { previous: unknown; current: unknown }>;
