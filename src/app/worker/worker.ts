import type { Engine } from "../../core/index.js";
import { ScrapelineError } from "../../core/index.js";
import { LocalEngine, SERVE_LLM_HOWTO } from "../../engines/local/index.js";
import { DEFAULT_LLM } from "../../pipeline/index.js";
import { PostgresStore } from "../../store/index.js";
import { extractionSettings, FrontierHolder, JobHeaderKey, openRunStore } from "../common/index.js";
import { isDatabaseUrl } from "../db-path.js";
import { CrawlWorker, type WorkerEvent } from "./crawl-worker.js";

export interface WorkerOptions {
  /** A postgres:// URL: the database serve's replicas keep their jobs in. */
  db: string;
  /** Pages in flight per crawl or batch in this process (default: the job's own). */
  concurrency?: number;
  /** Let fetches reach loopback and private addresses (off by default: the SSRF guard). */
  allowPrivateNetwork?: boolean;
  /** How long this process's claims last unless it renews them (default 30 s). */
  leaseMs?: number;
  /** Where the extraction model is configured (SCRAPELINE_LLM_*) and the key of jobs' header values (SCRAPELINE_SECRET_KEY); default process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  onEvent?: (event: WorkerEvent) => void;
}

/**
 * `scrapeline worker`: takes pages of serve's running crawls and batch scrapes from the shared frontier until
 * `stop`; then the pages in flight finish and are stored, and its other claims go back to the
 * queue. Refuses a SQLite database, which is one machine's (run and serve crawl there in one process).
 */
export async function runWorker(options: WorkerOptions, stop: AbortSignal): Promise<void> {
  if (!isDatabaseUrl(options.db)) {
    throw new ScrapelineError("invalid-input", `scrapeline worker needs a PostgreSQL database (--db postgres://…), shared with scrapeline serve; ${options.db} is a SQLite file, whose crawls run in one process (scrapeline run, scrapeline serve)`);
  }
  const store = openRunStore(options.db);
  if (!(store instanceof PostgresStore)) throw new ScrapelineError("internal", "a postgres:// URL opened a store that is not PostgreSQL");
  const holder = new FrontierHolder(store.crawlFrontierTables(), ...(options.leaseMs ? [options.leaseMs] : []));
  const env = options.env ?? process.env;
  const engine: Engine = new LocalEngine({
    allowPrivateNetwork: Boolean(options.allowPrivateNetwork),
    extraction: { ...extractionSettings({ extractor: "auto", llm: { ...DEFAULT_LLM } }, env), howTo: SERVE_LLM_HOWTO },
  });
  options.onEvent?.({ type: "ready" });
  try {
    await new CrawlWorker(store, engine, holder, { headerKey: new JobHeaderKey(env), ...(options.concurrency ? { concurrency: options.concurrency } : {}), ...(options.onEvent ? { onEvent: options.onEvent } : {}) }).run(stop);
  } finally {
    holder.close();
    await engine.close();
    store.close();
  }
}
