import type { Engine } from "../../core/index.js";
import { PostgresStore, type RunsStore } from "../../store/index.js";
import { FrontierHolder, type JobHeaderKey } from "../common/index.js";
import { CrawlWorker } from "../worker/index.js";

/** A replica's part in crawls and batch scrapes shared through PostgreSQL; none on SQLite (one server, crawls in memory). */
export interface SharedCrawls {
  /** This replica's name and lease in shared crawls. */
  holder: FrontierHolder | undefined;
  /** Whether a job is a shared crawl or batch scrape, which workers and replicas carry on when its replica is gone (not ended cancelled). */
  carriesOn(jobId: string): boolean;
  /** Stops taking over crawls, waits for those it carries on, and ends its lease renewals. */
  close(): Promise<void>;
}

/**
 * On PostgreSQL, a replica's crawls and batch scrapes share their frontier with other replicas and
 * workers, and a replica carries on (and finishes, then `onFinished`: its webhook's last message
 * is in the outbox) the shared jobs of a replica that is gone.
 */
export function sharedCrawls(store: RunsStore, engine: Engine, options: { leaseMs: number | undefined; headerKey: JobHeaderKey }, onFinished: (jobId: string) => void): SharedCrawls {
  if (!(store instanceof PostgresStore)) return { holder: undefined, carriesOn: () => false, close: async () => {} };
  const holder = new FrontierHolder(store.crawlFrontierTables(), options.leaseMs);
  const stop = new AbortController();
  const adopting = new CrawlWorker(store, engine, holder, { orphansOnly: true, headerKey: options.headerKey, onEvent: (event) => event.type === "finished-for-leader" && onFinished(event.jobId) }).run(stop.signal);
  return {
    holder,
    carriesOn: (jobId) => holder.tables.isShared(jobId),
    close: async () => {
      stop.abort();
      await adopting;
      holder.close();
    },
  };
}
