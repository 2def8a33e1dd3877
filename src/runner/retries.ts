import type { Store } from "../core/index.js";
import type { RunEvent } from "./events.js";

/** The run's event sink that also counts each retried page on its step's row, so `show` and the UI can tell. */
export function countingRetries(emit: (event: RunEvent) => void, store: Pick<Store, "saveRetry">, runId: number): (event: RunEvent) => void {
  return (event) => {
    if (event.type === "document-retried") store.saveRetry(runId, event.stepId);
    emit(event);
  };
}
