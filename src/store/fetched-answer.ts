// What the local engine's fetch gate answered a run, as both stores keep it for `run --from-run`.

/** An answer as kept: a response (its body a blob of its own) or a failure. */
export type FetchedAnswer =
  | { url: string; status: number; headers: Record<string, string>; redirects: string[]; body: Buffer }
  | { error: { kind: string; message: string; status?: number } };

/** An answer as its row and the run's manifest hold it: the body named by its blob. */
export type FetchedDescription =
  | { url: string; status: number; headers: Record<string, string>; redirects: string[]; body: string }
  | { error: { kind: string; message: string; status?: number } };

/**
 * Brotli quality of raw bodies: a body is compressed once per content (an unchanged page of a later
 * run is found by its hash), and raw HTML is most of what keeping pages costs, so it is packed
 * harder than documents are. Every page a run fetches goes through it, so it is also most of what
 * a crawl's writer spends. On the 65 real pages of the shared corpus (12.4 MB, one core): quality 1
 * packs 5.85× at 430 MB/s, 2 6.33× at 278 MB/s, 5 7.35× at 96 MB/s; on 30 KB generated article
 * pages 2 takes 0.18 ms a page, 5 0.50 ms. Quality 2 keeps bodies 16 % larger than 5 for a third
 * of the CPU.
 */
export const RAW_BODY_QUALITY = 2;

/** The manifest a finished run keeps of its answers: keys sorted, each with its answer. */
export function fetchedManifest(index: ReadonlyMap<string, FetchedDescription>): Buffer {
  const entries = [...index].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Buffer.from(JSON.stringify(entries));
}

/** The pages runs kept, as `run --from-run` reads and a run writes them, on either store. */
export interface FetchedPages {
  /** Keeps an answer of a run (sent with the run's pages; a page answered once is not forgotten for a later failure). */
  keep(runId: number, key: string, answer: FetchedAnswer): void;
  /** The answers a run kept, by request key, their bodies not read yet (see `answer`). */
  index(runId: number): Map<string, FetchedDescription>;
  answer(described: FetchedDescription): FetchedAnswer;
  /** Whether a run kept any page. */
  keptAny(runId: number): boolean;
  /** Notes the run whose stored pages a run converts. */
  markFromRun(runId: number, fromRun: number): void;
}
