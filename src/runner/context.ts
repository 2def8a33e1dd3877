import type { AgentLoop, ChangeTracker, CreditRules, CrawlFrontierPort, Engine, ExpectationJudge, HostGate, Plan, SessionVault, Store } from "../core/index.js";
import type { Budget } from "./budget.js";
import type { RunEvent } from "./events.js";
import type { WorkPool } from "./pool.js";

export interface RunnerPorts {
  engine: Engine;
  store: Store;
  credits: CreditRules;
  /** Compares pages with their previous snapshot, for engines that do not track changes themselves. */
  changes?: ChangeTracker;
  /** Where sessions' logins are kept between runs (encrypted); absent: a run logs in every time. */
  sessions?: SessionVault;
  /** The agent's loop (src/agent), for agent steps on engines that do not run the agent themselves. */
  agent?: AgentLoop;
  /** Judges steps' and the pipeline's expectations (src/expect); absent: they are not judged. */
  expectations?: ExpectationJudge;
  /** Per-host politeness shared with other processes crawling the same sites; absent: counted in this run only. */
  hosts?: HostGate;
  /**
   * The URLs of a scrape step handed out by a frontier other processes share too (a serve batch
   * job on PostgreSQL): each URL goes to one process at a time. Absent, or undefined for a step:
   * the step fetches all its URLs itself.
   */
  sharedUrls?: (stepId: string, urls: readonly string[]) => CrawlFrontierPort | undefined;
}

/** Shared by the steps of one run. */
export interface RunContext {
  runId: number;
  ports: RunnerPorts;
  plan: Plan;
  pool: WorkPool;
  budget: Budget;
  emit: (event: RunEvent) => void;
  stop: AbortSignal;
  abort: AbortSignal;
  clock: () => number;
  random: () => number;
  /**
   * What the page cache may answer, by page-cache key: `true` when the store held entries made
   * with those options when the run first asked, else the URLs the run itself has cached with them
   * since (nothing else can be there). Pages it can hold nothing of are fetched without a lookup
   * (entries another process adds meanwhile are not seen: the page is fetched fresh).
   */
  cacheHolds: Map<string, true | Set<string>>;
  /** Stops the run from starting more work, with the reason steps that never start are given. */
  halt: (reason: string) => void;
}

