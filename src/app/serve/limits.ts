import type { Team } from "../../core/index.js";
import { ScrapelineError } from "../../core/index.js";

const WINDOW_MS = 60_000;

/**
 * Per-team request rate: a fixed one-minute window per team. A request over the team's limit is
 * refused with a rate-limited error that says when the window resets (the HTTP layer turns it
 * into 429 with Retry-After); nothing refused was started.
 */
export class RateLimiter {
  private readonly windows = new Map<number, { start: number; count: number }>();

  constructor(private readonly clock: () => number = Date.now) {}

  take(team: Team): void {
    const now = this.clock();
    let window = this.windows.get(team.id);
    if (!window || now - window.start >= WINDOW_MS) {
      window = { start: now, count: 0 };
      this.windows.set(team.id, window);
    }
    if (window.count >= team.rateLimit) {
      const retryAfterMs = Math.max(1000, window.start + WINDOW_MS - now);
      const seconds = Math.ceil(retryAfterMs / 1000);
      throw new ScrapelineError("rate-limited", `Rate limit exceeded. Consumed (req/min): ${window.count}, Remaining (req/min): 0. Please retry after ${seconds}s, resets at ${new Date(window.start + WINDOW_MS).toUTCString()}`, { status: 429, retryAfterMs: seconds * 1000 });
    }
    window.count++;
  }
}

/** Refuses a new job when the team already runs as many as it may. */
export function checkConcurrency(team: Team, running: number): void {
  if (running < team.maxConcurrentJobs) return;
  throw new ScrapelineError("rate-limited", `Concurrency limit exceeded: ${running} job(s) running, at most ${team.maxConcurrentJobs} for this team. Please retry after 5s, when a job has finished`, { status: 429, retryAfterMs: 5000 });
}
