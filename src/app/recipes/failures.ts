import { openStore } from "../common/index.js";

/** Whether a replayed run asked for something its fixture does not hold (even a page a step could do without). */
export function askedUnrecorded(db: string, runId: number): boolean {
  const store = openStore(db);
  try {
    return store.failures(runId).some((f) => f.kind === "not-recorded");
  } finally {
    store.close();
  }
}

/** The pages a run failed, one line each (the first twenty), for a recipe test's report. */
export function recipeFailures(db: string, runId: number): string[] {
  const store = openStore(db);
  try {
    const failures = store.failures(runId);
    const lines = failures.slice(0, 20).map((f) => `${f.stepId}: ${f.url}: ${f.error}`);
    if (failures.length > 20) lines.push(`… and ${failures.length - 20} more failed pages`);
    const run = store.getRun(runId);
    if (run?.error) lines.push(run.error);
    return lines;
  } finally {
    store.close();
  }
}
