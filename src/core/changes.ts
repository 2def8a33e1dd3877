import type { ChangeTrackingResult } from "./document.js";
import type { ChangeTrackingMode } from "./types.js";

/** A page to compare with its previous snapshot (same URL, same tag). */
export interface TrackedPage {
  url: string;
  tag: string | null;
  markdown: string;
  statusCode: number;
  modes: ChangeTrackingMode[];
  visibility: "visible" | "hidden";
  /** json mode: the data extracted from the page with the format's schema. */
  extracted?: unknown;
}

/** What to record for the page, written in the same transaction as its document. */
export interface SnapshotWrite {
  url: string;
  tag: string | null;
  /** Hash of the normalized markdown, and of the normalizer settings it was made with. */
  fingerprint: string;
  normalizerKey: string;
  markdown: string;
  statusCode: number;
  /** json mode: the extracted data, as JSON. */
  extracted?: string;
  /** The version compared with, when the page was the same: it is marked seen again instead of adding a version. */
  sameAs?: number;
}

/** The result the Document carries, and the snapshot to write with it. */
export interface TrackedChange {
  result: ChangeTrackingResult;
  snapshot: SnapshotWrite;
}

/**
 * The change tracker port: compares a page with the store's latest snapshot of its URL and tag.
 * The runner calls it for engines that do not track changes themselves.
 */
export interface ChangeTracker {
  track(page: TrackedPage): TrackedChange;
}

/** One version of a page in the history: a new row whenever the content differs from the latest. */
export interface SnapshotRecord {
  id: number;
  url: string;
  tag: string | null;
  version: number;
  fingerprint: string;
  normalizerKey: string;
  blobHash: string;
  /** json mode: the data extracted from this version, as JSON. */
  extracted: string | null;
  statusCode: number | null;
  firstRunId: number | null;
  firstSeenAt: string;
  lastRunId: number | null;
  lastSeenAt: string;
}
