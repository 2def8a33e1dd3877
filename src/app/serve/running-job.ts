import type { CrawlFrontierPort, ServeJobKind } from "../../core/index.js";
import type { RunsStore } from "../../store/index.js";
import type { FrontierHolder, SharedFrontier } from "../common/index.js";

/** The one step of a job's pipeline. */
export const JOB_STEP_ID = "request";

/** How often a shared job with a webhook looks for pages other processes stored, to tell it. */
const TELL_OTHERS_PAGES_MS = 250;

/** A job in progress in this process. */
export interface RunningJob {
  id: string;
  teamId: number;
  kind: ServeJobKind;
  stop: AbortController;
  cancelled: boolean;
  stored: number;
  /** The request a crawl runs (its normalized body). */
  request?: unknown;
  /** URLs of the pages stored so far, in order: what status pages are read in. */
  pages: string[];
  frontier?: CrawlFrontierPort;
  /** The crawl's or batch's frontier when processes share it (PostgreSQL): its pages are stored by them too, so they are read from the store. */
  shared?: SharedFrontier;
  /** Tells the job's webhook of a stored page: for a shared job, once per page whichever process stored it. */
  onPage?: (url: string) => void;
  /** A shared job's pages told to its webhook so far, and the timer that looks for the others' pages. */
  told?: Set<string>;
  watch?: NodeJS.Timeout;
  runId?: number;
  limit?: number;
  /** Its request's header values are kept sealed beside it (SCRAPELINE_SECRET_KEY): it may be shared though they are not in its plan. */
  headersKept?: boolean;
  done: Promise<void>;
}

/**
 * Makes a job shared (a crawl or batch scrape whose frontier `holder` leads in the store, `limit`
 * pages at most): its pages are read from the store, and its webhook is told of those other
 * processes store too, once each.
 */
export function shareJob(job: RunningJob, holder: FrontierHolder, store: RunsStore, limit: number, frontier: () => SharedFrontier): SharedFrontier {
  holder.tables.openCrawl({ jobId: job.id, runId: job.runId!, stepId: JOB_STEP_ID, limit, holder: holder.id, leaseMs: holder.leaseMs });
  const shared = frontier();
  job.shared = shared;
  if (job.onPage) {
    job.told = new Set();
    job.watch = setInterval(() => {
      try {
        tellStored(job, store);
      } catch {
        // The database is unreachable for now: the next look, or the job's end, tells these pages.
      }
    }, TELL_OTHERS_PAGES_MS);
  }
  return shared;
}

/** A shared job's end: its claims given back, no process takes its pages any more, and its pages as stored by every process. */
export function endShared(job: RunningJob, holder: FrontierHolder | undefined, store: RunsStore): void {
  if (!job.shared || !holder) return;
  clearInterval(job.watch);
  job.shared.close();
  holder.tables.endCrawl(job.id);
  job.pages = [...store.storedUrls(job.runId!, JOB_STEP_ID)];
  job.stored = job.pages.length;
  if (job.told) tellStored(job, store, job.pages);
}

/** Tells the webhook of a shared job's pages stored since it was last told, by any process, in the order they were stored. */
export function tellStored(job: RunningJob, store: RunsStore, stored: readonly string[] = [...store.storedUrls(job.runId!, JOB_STEP_ID)]): void {
  for (const url of stored) {
    if (job.told!.has(url)) continue;
    job.told!.add(url);
    job.onPage!(url);
  }
}
