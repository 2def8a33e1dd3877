import { SECRET_KEY_ENV, TextSealer } from "../../store/index.js";
import { headerObjects, leftOutHeaderValues, storedWhole, withHeaderValues } from "./request-credentials.js";

/** A job's stored plan with its header values given back, or why this process cannot run it as it was sent. */
export type OpenedPlan<T> = { pipeline: T } | { why: string };

/** What a job's header values are sealed for (the key derived from SCRAPELINE_SECRET_KEY is this purpose's only). */
const PURPOSE = "serve job header values";

/** What a job's sealed header values are bound to: its id, so they cannot be moved to another job. */
const context = (jobId: string) => `job ${jobId}`;

/**
 * Seals and opens the header values of serve's jobs (the client's credentials for the site) with a
 * key from SCRAPELINE_SECRET_KEY: kept beside the job, they let another process (a worker, the
 * replica taking over) send the job's requests as they were sent. Their plan is stored without them.
 */
export class JobHeaderKey {
  private readonly sealer: TextSealer | undefined;

  constructor(env: Readonly<Record<string, string | undefined>>) {
    const secret = env[SECRET_KEY_ENV];
    this.sealer = secret ? new TextSealer(secret, PURPOSE) : undefined;
  }

  /** The header values of the job `jobId`'s `pipeline` sealed, to keep beside it; none without a key, or when it has none. */
  seal(jobId: string, pipeline: unknown): string | undefined {
    if (!this.sealer || storedWhole(pipeline)) return undefined;
    return this.sealer.seal(JSON.stringify(headerObjects(pipeline)), context(jobId));
  }

  /**
   * The job's stored plan with its header values, from what `sealed` reads (only asked when the
   * plan left values out); or why it cannot be run here as it was sent: nothing was kept (the
   * replica that accepted it had no key), this process has no key, or another key sealed them.
   */
  open<T>(jobId: string, stored: T, sealed: () => string | undefined): OpenedPlan<T> {
    if (!leftOutHeaderValues(stored)) return { pipeline: stored };
    const kept = sealed();
    if (kept === undefined) {
      return { why: `its request had header values, which are not stored, so it cannot run again here (the replica that accepted it had no ${SECRET_KEY_ENV} to keep them encrypted)` };
    }
    if (!this.sealer) return { why: `its request's header values are kept encrypted and this process has no ${SECRET_KEY_ENV} to decrypt them` };
    const plain = this.sealer.open(kept, context(jobId));
    if (plain === undefined) return { why: `its request's header values cannot be decrypted with this process's ${SECRET_KEY_ENV} (they were encrypted under another)` };
    return { pipeline: withHeaderValues(stored, JSON.parse(plain) as Array<Record<string, unknown>>) };
  }
}
