import { hostname } from "node:os";
import type { ServeJob } from "../../core/index.js";
import { durationVariable } from "../common/index.js";
import type { RunsStore, ServeTables, TakenOverJob } from "../../store/index.js";
import type { BrowserSessionHolders } from "./browser.js";

/** How long a replica's heartbeat may be silent before the others take it for dead, unless SCRAPELINE_REPLICA_LEASE says. */
export const DEFAULT_REPLICA_LEASE_MS = 60_000;

/** The lease SCRAPELINE_REPLICA_LEASE gives (`60s`, `2m`, `500ms`; a bare number is seconds), or the default. */
export function replicaLeaseMs(env: Readonly<Record<string, string | undefined>>): number {
  return durationVariable(env, "SCRAPELINE_REPLICA_LEASE", {
    fallbackMs: DEFAULT_REPLICA_LEASE_MS,
    minMs: 100,
    means: "how long a replica may be silent before others take it for dead, such as 60s, 2m or 500ms (at least 100ms)",
  });
}

export interface ReplicaLivenessOptions {
  tables: ServeTables;
  store: RunsStore;
  /** This replica's token (its serve_servers row). */
  token: string;
  leaseMs: number;
  /**
   * Carries on a job a dead replica left; when it cannot (then it ends cancelled), why, if there
   * is more to say than its kind. A shared crawl or batch scrape (PostgreSQL) goes on: replicas and
   * workers carry it on and finish it; an extract or agent job resumes on this replica.
   */
  resume?: (job: ServeJob) => { carriedOn: true } | { carriedOn: false; why?: string };
  /** Sends the job webhooks' messages no live replica holds (after a takeover, those the dead ones were sending). */
  resendWebhooks: () => void;
  /** A job taken over has ended (its webhook hears how, after what the dead replica had not sent). */
  onSettled?: (job: ServeJob) => void;
  /** A check that failed (the database unreachable): the next one tries again. */
  onError?: (error: unknown) => void;
}

/**
 * The liveness of serve replicas sharing a PostgreSQL database. Every quarter of the lease this
 * replica beats its heart (its row's last_seen) and takes over, once, what replicas found dead
 * left: their unfinished jobs (carried on when they can be, else cancelled with the error naming
 * the replica) and their job webhooks' unsent messages. On SQLite (one server) it checks once, at start.
 */
export class ReplicaLiveness {
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: ReplicaLivenessOptions) {}

  /** Checks now, then on an interval when replicas may share the database. */
  start(): void {
    this.check();
    if (!this.options.tables.sharedByReplicas()) return;
    this.timer = setInterval(() => this.check(), Math.max(25, Math.floor(this.options.leaseMs / 4)));
    this.timer.unref();
  }

  /** One heartbeat and takeover; the jobs this replica took over. */
  check(): TakenOverJob[] {
    try {
      const taken = this.options.tables.takeOverDead(this.options.token, this.options.leaseMs);
      this.options.resendWebhooks();
      for (const item of taken) this.settle(item);
      return taken;
    } catch (error) {
      (this.options.onError ?? reportCheckError)(error);
      return [];
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private settle({ job, from }: TakenOverJob): void {
    const resumed = this.options.resume?.(job);
    if (resumed?.carriedOn) return;
    const why = resumed?.why ? `; it was not resumed: ${resumed.why}` : "";
    const error = `the server stopped before the job finished${from ? ` (scrapeline serve pid ${from.pid} on ${from.host}, last seen ${from.lastSeen}; settled by pid ${process.pid} on ${hostname()}${why})` : why ? ` (${why.slice(2)})` : ""}`;
    this.options.tables.finishJob(job.id, "cancelled", { error });
    const run = job.runId === null ? undefined : this.options.store.getRun(job.runId);
    if (run?.status === "running") this.options.store.finishRun(run.id, "interrupted", error);
    this.options.onSettled?.(job);
  }
}

/** The browser sessions' holders as the serve tables record them: this replica's, and the live replica holding another's. */
export function browserSessionHolders(tables: ServeTables, token: string): BrowserSessionHolders {
  return {
    hold: (id, teamId) => tables.holdBrowserSession(id, teamId, token),
    drop: (id) => tables.dropBrowserSession(id),
    elsewhere: (id, teamId) => {
      const holder = tables.browserSessionHolder(id, teamId);
      return holder && holder.token !== token ? `scrapeline serve pid ${holder.pid} on ${holder.host}, started ${holder.startedAt}` : undefined;
    },
  };
}

function reportCheckError(error: unknown): void {
  process.stderr.write(`scrapeline serve: the replicas' heartbeat failed (it tries again): ${error instanceof Error ? error.message : String(error)}\n`);
}
