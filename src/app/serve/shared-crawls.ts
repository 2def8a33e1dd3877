import type { Engine } from "../../core/index.js";
import { PostgresStore, type RunsStore } from "../../store/index.js";
import { FrontierHolder } from "../common/index.js";
import { CrawlWorker } from "../worker/index.js";

/** A replica's part in crawls shared through PostgreSQL; none on SQLite (one server, crawls in memory). */
export interface SharedCrawls {
  /** This replica's name and lease in shared crawls. */
  holder: FrontierHolder | undefined;
  /** Stops taking over crawls, waits for those it carries on, and ends its lease renewals. */
  close(): Promise<void>;
}

/**
 * On PostgreSQL, a replica's crawls share their frontier with other replicas and workers, and a
 * replica carries on (and finishes) the shared crawls of a replica that is gone.
 */
export function sharedCrawls(store: RunsStore, engine: Engine, leaseMs: number | undefined): SharedCrawls {
  if (!(store instanceof PostgresStore)) return { holder: undefined, close: async () => {} };
  const holder = new FrontierHolder(store.crawlFrontierTables(), leaseMs);
  const stop = new AbortController();
  const adopting = new CrawlWorker(store, engine, holder, { orphansOnly: true }).run(stop.signal);
  return {
    holder,
    close: async () => {
      stop.abort();
      await adopting;
      holder.close();
    },
  };
}
