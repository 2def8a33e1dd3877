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
  /** Stops the run from starting more work, with the reason steps that never start are given. */
  halt: (reason: string) => void;
}

