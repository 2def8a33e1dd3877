import type { Plan } from "../core/index.js";
import { Budget } from "./budget.js";
import type { RunContext, RunnerPorts } from "./context.js";
import type { EventSink } from "./events.js";
import { WorkPool } from "./pool.js";
import { countingRetries } from "./retries.js";

/**
 * The context the steps of run `runId` share in this process: a work pool at the pipeline's pace
 * (its per-host limits shared through `ports.hosts` when given), a budget that counts what the run
 * has spent already, and events that count retries in the store.
 */
export function newRunContext(
  ports: RunnerPorts,
  plan: Plan,
  runId: number,
  emit: EventSink,
  how: Pick<RunContext, "stop" | "abort" | "clock" | "random" | "halt">,
): RunContext {
  const pipeline = plan.pipeline;
  return {
    runId,
    ports,
    plan,
    pool: new WorkPool({ concurrency: pipeline.concurrency, perHostConcurrency: pipeline.perHostConcurrency }, how.clock, ports.hosts),
    budget: new Budget(pipeline.budget.maxCredits, ports.store.getRun(runId)?.creditsUsed ?? 0),
    emit: countingRetries(emit, ports.store, runId),
    cacheHolds: new Map(),
    ...how,
  };
}
