import type { Reply } from "./router.js";

/** How long a key's answer is kept: a client retrying later than this starts new work. */
const KEEP_MS = 24 * 3600_000;
/** Answers kept at most; the oldest go first. */
const MAX_KEYS = 10_000;

/**
 * `x-idempotency-key` on a work-starting POST: the first request with a key does the work, and a
 * request of the same team with the same key (a client retrying after a lost answer, even while
 * the first is still running) gets the first answer instead of starting the work twice. A key
 * reused for another endpoint is a 409. Failed answers are not kept, so a retry can succeed.
 */
export class IdempotencyKeys {
  private readonly answers = new Map<string, { route: string; at: number; reply: Promise<Reply> }>();

  constructor(private readonly clock: () => number = Date.now) {}

  async run(teamId: number, key: string, route: string, work: () => Promise<Reply>): Promise<Reply> {
    const id = `${teamId}\u0000${key}`;
    const now = this.clock();
    const kept = this.answers.get(id);
    if (kept && now - kept.at < KEEP_MS) {
      if (kept.route !== route) return { status: 409, body: { success: false, error: "Idempotency key already used for another request" } };
      return kept.reply;
    }
    const reply = work();
    this.answers.set(id, { route, at: now, reply });
    if (this.answers.size > MAX_KEYS) this.answers.delete(this.answers.keys().next().value!);
    const settled = await reply.catch((error: unknown) => {
      this.answers.delete(id);
      throw error;
    });
    if (settled.status >= 300) this.answers.delete(id);
    return settled;
  }
}
