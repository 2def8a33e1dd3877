const MAX_TIMER_MS = 2_147_483_647;

/**
 * One AbortSignal for a whole exchange: it fires when the overall deadline passes or when the
 * caller's signal aborts, and remembers which of the two it was.
 */
export class Deadline {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly caller: AbortSignal | undefined;
  private readonly onCallerAbort = () => this.fire("cancelled");
  /** Why the signal fired, once it has. */
  reason: "timeout" | "cancelled" | undefined;

  constructor(timeoutMs: number, caller?: AbortSignal) {
    this.caller = caller;
    // setTimeout treats anything over 2^31 - 1 ms as 1 ms.
    this.timer = setTimeout(() => this.fire("timeout"), Math.min(Math.max(0, timeoutMs), MAX_TIMER_MS));
    this.timer.unref();
    if (caller?.aborted) this.fire("cancelled");
    else caller?.addEventListener("abort", this.onCallerAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Stops the timer and lets go of the caller's signal. */
  dispose(): void {
    clearTimeout(this.timer);
    this.caller?.removeEventListener("abort", this.onCallerAbort);
  }

  private fire(reason: "timeout" | "cancelled"): void {
    if (this.reason) return;
    this.reason = reason;
    this.controller.abort(new Error(reason === "timeout" ? "deadline passed" : "cancelled by caller"));
  }
}
