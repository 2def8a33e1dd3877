/**
 * The end of one piece of browser work: its deadline, or the caller's signal. When either comes,
 * `onEnd` runs (closing the page or context the work uses) and work passed to `race` rejects at
 * once: a browser call can stay pending for good once its context is closed under it (a page
 * being created, for one), and nothing that waits on the work may wait with it.
 */
export class WorkDeadline {
  /** The deadline passed (rather than the signal aborting). */
  timedOut = false;
  private over = false;
  private readonly timer: ReturnType<typeof setTimeout>;
  private readonly ended: Promise<never>;
  private endWith: (reason: unknown) => void = () => undefined;

  constructor(
    timeoutMs: number,
    private readonly signal: AbortSignal | undefined,
    private readonly onEnd: () => void,
  ) {
    this.ended = new Promise<never>((_, reject) => (this.endWith = reject));
    // Nobody may be racing yet when the end comes.
    this.ended.catch(() => undefined);
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.end(new Error(`the work did not finish within ${timeoutMs} ms`));
    }, timeoutMs);
    signal?.addEventListener("abort", this.onAbort, { once: true });
    // Stopped before it began: the work started alongside ends as soon as it can.
    if (signal?.aborted) this.end(signal.reason);
  }

  /** Whether the deadline passed or the signal aborted. */
  get isOver(): boolean {
    return this.over;
  }

  /** `work`, or a rejection as soon as the deadline passes or the signal aborts, whichever comes first. */
  race<T>(work: Promise<T>): Promise<T> {
    this.signal?.throwIfAborted();
    return Promise.race([work, this.ended]);
  }

  /** Stops the clock and the listener (the work settled). */
  dispose(): void {
    clearTimeout(this.timer);
    this.signal?.removeEventListener("abort", this.onAbort);
  }

  private readonly onAbort = (): void => this.end(this.signal?.reason);

  private end(reason: unknown): void {
    if (this.over) return;
    this.over = true;
    this.onEnd();
    this.endWith(reason);
  }
}
