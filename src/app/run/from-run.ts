import type { Pipeline, RunRecord, Store } from "../../core/index.js";
import { ScrapelineError } from "../../core/index.js";
import type { EngineTaps } from "../../engines/local/index.js";
import { keepingBrowser, keepingGate, safeUrl, storedPagesTaps, type FetchedPageSink, type FetchedPageSource, type KeptAnswer } from "../../engines/replay/index.js";
import type { FetchedDescription as Described, FetchedPages, RunsStore } from "../../store/index.js";

/** A run made from the pages an earlier run stored (run --from-run). */
export interface FromRunOptions {
  /** The run whose stored pages are converted again, or the pipeline's latest run that kept pages. */
  fromRun?: number | "latest";
  /** Pages the run never fetched are fetched live (with the run's normal policy) instead of failing with not-stored. */
  fetchMissing?: boolean;
}

/** The run a `--from-run` names, and a warning when it is another pipeline's. */
export interface ChosenRun {
  run: RunRecord;
  warning?: string;
}

/**
 * The run `--from-run` names, checked before any work: it exists, it kept its pages (a run on the
 * local engine does), and it is this pipeline's (another pipeline's run is used with a warning:
 * converting a site's pages with a new recipe is the point).
 */
export function chooseFromRun(store: RunsStore, pipeline: Pipeline, fromRun: number | "latest"): ChosenRun {
  const pages = store.fetchedPages();
  // A run that took every page from the page cache kept none itself, but the runs that fetched them did;
  // a run on the service kept nothing (the service fetched its pages, and its cache is its own).
  const usable = (run: RunRecord) => run.engine === "local" && (pages.keptAny(run.id) || cachedPageUrls(store, run.id).size > 0);
  if (fromRun === "latest") {
    const run = store.listRuns({ pipelineName: pipeline.name }).find(usable);
    if (!run) throw new ScrapelineError("invalid-input", `--from-run latest: pipeline "${pipeline.name}" has no run with stored pages in this database; run it once without --from-run`);
    return { run };
  }
  const run = store.getRun(fromRun);
  if (!run) {
    const ids = store.listRuns({ limit: 10 }).map((r) => `${r.id} (${r.pipelineName})`);
    throw new ScrapelineError("invalid-input", `--from-run: run ${fromRun} not found; runs: ${ids.length > 0 ? `${ids.join(", ")}${ids.length === 10 ? ", …" : ""}` : "none"}`);
  }
  if (!usable(run)) {
    const why = run.engine !== "local" ? `it ran on the ${run.engine} engine, which fetches pages itself` : "it fetched nothing, its pipeline says keepPages: false, or it was made before runs kept their pages";
    throw new ScrapelineError("invalid-input", `--from-run: run ${run.id} kept no fetched pages (${why})`);
  }
  const warning = run.pipelineName === pipeline.name ? undefined : `run ${run.id} is of pipeline "${run.pipelineName}", not "${pipeline.name}": its pages are used all the same`;
  return { run, ...(warning ? { warning } : {}) };
}

/**
 * The pages a run used, read as the new run asks for them (each index once, each answer when
 * asked). A page the run took from the page cache was fetched by an earlier run: it is answered
 * from the newest earlier run that kept it.
 */
export function storedPages(store: RunsStore, runId: number): FetchedPageSource {
  const table = store.fetchedPages();
  const index = table.index(runId);
  // Read once a page is missing: it means reading every document of the run.
  let cached: Set<string> | undefined;
  const earlier = new Map<number, Map<string, Described>>();
  let older: RunRecord[] | undefined;
  const fromEarlier = (key: string): Described | undefined => {
    older ??= store.listRuns().filter((r) => r.id < runId);
    for (const run of older) {
      let runIndex = earlier.get(run.id);
      if (!runIndex) earlier.set(run.id, (runIndex = table.index(run.id)));
      const described = runIndex.get(key);
      if (described !== undefined) return described;
    }
    return undefined;
  };
  return {
    name: `run ${runId}`,
    find: (key) => {
      let described = index.get(key);
      // A key is its method (or BROWSER) and the URL, then maybe the hash of a body sent.
      if (described === undefined && (cached ??= cachedPageUrls(store, runId)).has(key.split(" ")[1] ?? "")) described = fromEarlier(key);
      return described === undefined ? undefined : (table.answer(described) as KeptAnswer);
    },
  };
}

/** The URLs of the pages a run took from the page cache, as request keys name them. */
function cachedPageUrls(store: RunsStore, runId: number): Set<string> {
  const urls = new Set<string>();
  for (const page of store.documents(runId)) if (page.document.metadata.cacheState === "hit") urls.add(safeUrl(page.url));
  return urls;
}

/** Where a run keeps what its gate was answered: the run's id is known once the runner has made it. */
export class RunPageKeeper implements FetchedPageSink {
  runId: number | undefined;
  /** Keeps nothing without `pages` (the pipeline says `keepPages: false`). */
  constructor(private readonly pages: FetchedPages | undefined) {}

  keep(key: string, answer: KeptAnswer): void {
    if (this.runId !== undefined) this.pages?.keep(this.runId, key, answer);
  }
}

/**
 * The engine's taps for a run: its fetch gate keeps every answer in the store, over the gate of
 * a recording or a replay (`fixture`) or, with --from-run, the one answering from stored pages (a
 * replay's model and searches still answer then: `--from-run` with `--replay`).
 */
export function runTaps(keeper: FetchedPageSink, fixture: EngineTaps | undefined, from: { source: FetchedPageSource; fetchMissing: boolean } | undefined): EngineTaps {
  if (from) {
    // The fixture's model and searches, if any; its refusal of browser pages gives way to the stored ones.
    const { refuseBrowser: _fixtureRefuses, ...rest } = fixture ?? {};
    return { ...rest, ...storedPagesTaps(from.source, { fetchMissing: from.fetchMissing, keep: keeper }) };
  }
  const keeping = keepingGate(keeper);
  const inner = fixture?.gate;
  return { ...fixture, gate: (gate) => keeping(inner ? inner(gate) : gate), keepBrowserPage: keepingBrowser(keeper) };
}

/**
 * The store as a run made from stored pages sees it: the page cache neither answers (every page is
 * converted from what was stored) nor keeps its pages (they were fetched when the earlier run ran,
 * not now).
 */
export function withoutPageCache(store: RunsStore): Store {
  const overrides: Partial<Store> = {
    cacheGet: () => undefined,
    cacheHolds: () => false,
    cachePut: () => undefined,
    saveDocument: (record, snapshot) => store.saveDocument(record, snapshot),
  };
  return new Proxy(store, {
    get(target, name, receiver) {
      if (Object.hasOwn(overrides, name)) return overrides[name as keyof Store];
      const value = Reflect.get(target, name, receiver) as unknown;
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
