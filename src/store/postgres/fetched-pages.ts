// The raw pages runs kept for `run --from-run` on PostgreSQL: what ../sqlite/fetched-pages.ts keeps, kept alike.
import { fetchedManifest, RAW_BODY_QUALITY, type FetchedAnswer, type FetchedDescription, type FetchedPages } from "../fetched-answer.js";
import type { OnThread } from "./on-thread.js";
import { getBlob, getText, putBlob } from "./blobs.js";
import { row, rows, run, value, type Tx } from "./sql.js";

/** The answers a run kept, by request key: the run's manifest overlaid with rows written since. */
async function fetchedIndex(tx: Tx, runId: number): Promise<Map<string, FetchedDescription>> {
  const out = new Map<string, FetchedDescription>();
  const manifest = await value<string | null>(tx, "SELECT fetched FROM runs WHERE id = $1", [runId]);
  if (manifest) for (const [key, described] of JSON.parse(await getText(tx, manifest)) as Array<[string, FetchedDescription]>) out.set(key, described);
  for (const r of await rows(tx, "SELECT key, response FROM fetched_pages WHERE run_id = $1", [runId])) out.set(r.key as string, JSON.parse(r.response as string) as FetchedDescription);
  return out;
}

/** Keeps one answer of a run, in the caller's transaction. A page answered once is not forgotten for a later failure. */
export async function keepFetched(tx: Tx, runId: number, key: string, answer: FetchedAnswer): Promise<void> {
  if ("error" in answer && (await row(tx, "SELECT 1 FROM fetched_pages WHERE run_id = $1 AND key = $2", [runId, key])) !== undefined) return;
  const described: FetchedDescription = "error" in answer ? answer : { ...answer, body: await putBlob(tx, Buffer.from(answer.body), "br", RAW_BODY_QUALITY) };
  await run(tx, "INSERT INTO fetched_pages (run_id, key, response) VALUES ($1, $2, $3) ON CONFLICT (run_id, key) DO UPDATE SET response = excluded.response", [runId, key, JSON.stringify(described)]);
}

/** Folds a run's rows into one manifest on the run, in the caller's transaction (see ../sqlite/fetched-pages.ts). */
export async function compactFetched(tx: Tx, runId: number): Promise<void> {
  if ((await row(tx, "SELECT 1 FROM fetched_pages WHERE run_id = $1 LIMIT 1", [runId])) === undefined) return;
  await run(tx, "UPDATE runs SET fetched = $1 WHERE id = $2", [await putBlob(tx, fetchedManifest(await fetchedIndex(tx, runId))), runId]);
  await run(tx, "DELETE FROM fetched_pages WHERE run_id = $1", [runId]);
}

/** What the thread does for each call of FetchedPages (`keep` is sent with the pages and saved with them). */
export const FETCHED_PAGES: OnThread<FetchedPages> = {
  keep: keepFetched,
  index: fetchedIndex,
  answer: async (tx, described) => ("error" in described ? described : { ...described, body: await getBlob(tx, described.body) }),
  keptAny: async (tx, runId) =>
    Boolean(await value(tx, "SELECT fetched FROM runs WHERE id = $1", [runId])) || (await row(tx, "SELECT 1 FROM fetched_pages WHERE run_id = $1 LIMIT 1", [runId])) !== undefined,
  markFromRun: async (tx, runId, fromRun) => run(tx, "UPDATE runs SET from_run = $1 WHERE id = $2", [fromRun, runId]),
};
