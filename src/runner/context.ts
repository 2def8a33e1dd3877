import type { ChangeTracker, CreditRules, Engine, Plan, Store } from "../core/index.js";
import type { Budget } from "./budget.js";
import type { RunEvent } from "./events.js";
import type { WorkPool } from "./pool.js";

export interface RunnerPorts {
  engine: Engine;
  store: Store;
  credits: CreditRules;
  /** Compares pages with their previous snapshot, for engines that do not track changes themselves. */
  changes?: ChangeTracker;
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
   * By page-cache key, whether the cache may hold pages made with those options: asked of the store
   * once per run, and true from the run's first page stored with the key. A page whose key the
   * cache holds nothing of is fetched without a lookup (entries another process adds meanwhile are
   * not seen: the page is fetched fresh).
   */
  cacheHolds: Map<string, boolean>;
  /** Stops the run from starting more work, with the reason steps that never start are given. */
  halt: (reason: string) => void;
}

