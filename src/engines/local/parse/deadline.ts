import { ScrapelineError } from "../../../core/index.js";

/**
 * A parse's `timeout` as the file's deadline on the local engine: the work gets a signal that
 * aborts when the time is up (the conversion's thread is ended, the model call of a json format
 * stops), and the deadline is checked again when the work ends. Either way the file fails as a
 * timeout naming it; the caller's own cancellation stays a cancellation.
 */
export async function withDeadline<T>(name: string, timeoutMs: number, signal: AbortSignal | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const deadline = AbortSignal.timeout(timeoutMs);
  const combined = signal ? AbortSignal.any([signal, deadline]) : deadline;
  const late = () => new ScrapelineError("timeout", `${name} was not converted within its timeout of ${timeoutMs} ms`);
  let result: T;
  try {
    result = await work(combined);
  } catch (error) {
    if (deadline.aborted && !signal?.aborted) throw late();
    throw error;
  }
  if (deadline.aborted && !signal?.aborted) throw late();
  return result;
}
