import type { Team } from "../../core/index.js";
import { ScrapelineError } from "../../core/index.js";
import { REQUEST_WINDOW_MS, type ServeTables } from "../../store/index.js";

/**
 * Per-team request rate: a fixed one-minute window per team, counted by the store's serve tables
 * (by every replica together on PostgreSQL). A request over the team's limit is refused with a
 * rate-limited error that says when the window resets (the HTTP layer turns it into 429 with
 * Retry-After); nothing refused was started.
 */
export class RateLimiter {
  constructor(
    private readonly tables: Pick<ServeTables, "takeRequest">,
    private readonly clock: () => number = Date.now,
  ) {}

  take(team: Team): void {
    const now = this.clock();
    const window = this.tables.takeRequest(team.id, team.rateLimit, now);
    if (!window.taken) {
      const retryAfterMs = Math.max(1000, window.start + REQUEST_WINDOW_MS - now);
      const seconds = Math.ceil(retryAfterMs / 1000);
      throw new ScrapelineError("rate-limited", `Rate limit exceeded. Consumed (req/min): ${window.count}, Remaining (req/min): 0. Please retry after ${seconds}s, resets at ${new Date(window.start + REQUEST_WINDOW_MS).toUTCString()}`, { status: 429, retryAfterMs: seconds * 1000 });
    }
  }
}

/** Refuses a new job when the team already runs as many as it may. */
export function checkConcurrency(team: Team, running: number): void {
  if (running < team.maxConcurrentJobs) return;
  throw concurrencyRefused(running, team.maxConcurrentJobs);
}

/** The answer to a job over the team's concurrent-job limit (429). */
export function concurrencyRefused(running: number, max: number): ScrapelineError {
  return new ScrapelineError("rate-limited", `Concurrency limit exceeded: ${running} job(s) running, at most ${max} for this team. Please retry after 5s, when a job has finished`, { status: 429, retryAfterMs: 5000 });
}
