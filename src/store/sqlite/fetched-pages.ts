import type Database from "better-sqlite3";
import { fetchedManifest, RAW_BODY_QUALITY, type FetchedAnswer, type FetchedDescription as Described, type FetchedPages } from "../fetched-answer.js";
import { getBlob, putBlob } from "./blobs.js";

/** Keeps one answer of a run, in the caller's transaction. A page answered once is not forgotten for a later failure. */
export function keepFetched(db: Database.Database, runId: number, key: string, answer: FetchedAnswer): void {
  if ("error" in answer) {
    const earlier = db.prepare("SELECT 1 FROM fetched_pages WHERE run_id = ? AND key = ?").get(runId, key);
    if (earlier !== undefined) return;
  }
  const described: Described = "error" in answer ? answer : { ...answer, body: putBlob(db, answer.body, "br", RAW_BODY_QUALITY) };
  db.prepare("INSERT INTO fetched_pages (run_id, key, response) VALUES (?, ?, ?) ON CONFLICT (run_id, key) DO UPDATE SET response = excluded.response").run(runId, key, JSON.stringify(described));
}

/** The answers a run kept, by request key: the run's manifest overlaid with rows written since. */
export function fetchedIndex(db: Database.Database, runId: number): Map<string, Described> {
  const out = new Map<string, Described>();
  const manifest = db.prepare("SELECT fetched FROM runs WHERE id = ?").pluck().get(runId) as string | null | undefined;
  if (manifest) for (const [key, described] of JSON.parse(getBlob(db, manifest).toString("utf8")) as Array<[string, Described]>) out.set(key, described);
  for (const row of db.prepare("SELECT key, response FROM fetched_pages WHERE run_id = ?").all(runId) as Array<{ key: string; response: string }>) out.set(row.key, JSON.parse(row.response) as Described);
  return out;
}

/** One kept answer, its body read back. */
export function readFetched(db: Database.Database, described: Described): FetchedAnswer {
  return "error" in described ? described : { ...described, body: getBlob(db, described.body) };
}

/**
 * Folds a run's rows into one manifest on the run (keys sorted, each with its answer), in the
 * caller's transaction: an unchanged site's next run makes the same manifest, so it costs no new
 * blob, and the answers' headers, alike from page to page, compress together. Repeating it is harmless.
 */
export function compactFetched(db: Database.Database, runId: number): void {
  const rows = db.prepare("SELECT 1 FROM fetched_pages WHERE run_id = ? LIMIT 1").get(runId);
  if (rows === undefined) return;
  db.prepare("UPDATE runs SET fetched = ? WHERE id = ?").run(putBlob(db, fetchedManifest(fetchedIndex(db, runId))), runId);
  db.prepare("DELETE FROM fetched_pages WHERE run_id = ?").run(runId);
}

/** Whether a run kept any page. */
export function keptAny(db: Database.Database, runId: number): boolean {
  const manifest = db.prepare("SELECT fetched FROM runs WHERE id = ?").pluck().get(runId) as string | null | undefined;
  return Boolean(manifest) || db.prepare("SELECT 1 FROM fetched_pages WHERE run_id = ? LIMIT 1").get(runId) !== undefined;
}

/** The pages runs kept in a SQLite database; answers are kept through `keep` (the store's writer once it has one). */
export class FetchedPageTable implements FetchedPages {
  constructor(
    private readonly db: Database.Database,
    readonly keep: (runId: number, key: string, answer: FetchedAnswer) => void,
  ) {}

  /** The answers a run kept, by request key, their bodies not read yet (see `answer`). */
  index(runId: number): Map<string, Described> {
    return fetchedIndex(this.db, runId);
  }

  answer(described: Described): FetchedAnswer {
    return readFetched(this.db, described);
  }

  keptAny(runId: number): boolean {
    return keptAny(this.db, runId);
  }

  /** Notes the run whose stored pages a run converts. */
  markFromRun(runId: number, fromRun: number): void {
    this.db.prepare("UPDATE runs SET from_run = ? WHERE id = ?").run(fromRun, runId);
  }
}
