import type { ScrapeOptions } from "../core/index.js";
import { ScrapelineError } from "../core/index.js";

/** A retry is made only when at least this much of the page's deadline is left for it (the service's least `timeout`). */
export const MIN_ATTEMPT_MS = 1000;

/**
 * A page's `timeout` as its overall deadline: it starts with the first attempt, every attempt
 * and the backoff between them spend it, and each later attempt is asked to finish within what
 * is left. Waits a 429 asks for spend no attempt and extend it by their length.
 */
export class PageDeadline {
  private endsAt: number | undefined;

  constructor(private readonly timeoutMs: number) {}

  /** The options for an attempt starting at `now`: unchanged for the first, with the time left as `timeout` for later ones. */
  shape(options: ScrapeOptions, now: number): ScrapeOptions {
    if (this.endsAt === undefined) {
      this.endsAt = now + this.timeoutMs;
      return options;
    }
    const left = this.endsAt - now;
    if (left >= options.timeout) return options;
    if (left <= 0) throw new ScrapelineError("timeout", `the page's timeout of ${this.timeoutMs} ms passed before another attempt could start`);
    return { ...options, timeout: Math.max(MIN_ATTEMPT_MS, Math.ceil(left)) };
  }

  /** Whether an attempt starting at `at` would still have MIN_ATTEMPT_MS of the deadline. */
  allowsRetryAt(at: number): boolean {
    return this.endsAt === undefined || this.endsAt - at >= MIN_ATTEMPT_MS;
  }

  /** Moves the deadline on by a wait that spent no attempt. */
  extend(ms: number): void {
    if (this.endsAt !== undefined) this.endsAt += ms;
  }
}
