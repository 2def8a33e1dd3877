import type Database from "better-sqlite3";
import { getBlob, putBlob } from "./blobs.js";

/** What the fetch gate answered a run, as kept: a response (its body a blob of its own) or a failure. */
export type FetchedAnswer =
  | { url: string; status: number; headers: Record<string, string>; redirects: string[]; body: Buffer }
  | { error: { kind: string; message: string; status?: number } };

/** An answer as its row and the run's manifest hold it: the body named by its blob. */
export type Described = { url: string; status: number; headers: Record<string, string>; redirects: string[]; body: string } | { error: { kind: string; message: string; status?: number } };

/**
 * Brotli quality of raw bodies: a body is compressed once per content (an unchanged page of a later
 * run is found by its hash), and raw HTML is most of what keeping pages costs, so it is packed
 * harder than documents are. Every page a run fetches goes through it, so it is also most of what
 * a crawl's writer thread spends. On the 65 real pages of the shared corpus (12.4 MB, one core):
 * quality 1 packs 5.85× at 430 MB/s, 2 6.33× at 278 MB/s, 5 7.35× at 96 MB/s; on 30 KB generated
 * article pages 2 takes 0.18 ms a page, 5 0.50 ms. Quality 2 keeps bodies 16 % larger than 5 for a
 * third of the CPU.
 */
export const RAW_BODY_QUALITY = 2;

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
  const entries = [...fetchedIndex(db, runId)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  db.prepare("UPDATE runs SET fetched = ? WHERE id = ?").run(putBlob(db, Buffer.from(JSON.stringify(entries))), runId);
  db.prepare("DELETE FROM fetched_pages WHERE run_id = ?").run(runId);
}

/** Whether a run kept any page. */
export function keptAny(db: Database.Database, runId: number): boolean {
  const manifest = db.prepare("SELECT fetched FROM runs WHERE id = ?").pluck().get(runId) as string | null | undefined;
  return Boolean(manifest) || db.prepare("SELECT 1 FROM fetched_pages WHERE run_id = ? LIMIT 1").get(runId) !== undefined;
}

/** The pages runs kept, as `run --from-run` reads them, and the run a run was made from. */
export class FetchedPageTable {
  constructor(private readonly db: Database.Database) {}

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
