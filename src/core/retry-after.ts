/**
 * Reads a Retry-After value: delta-seconds or an HTTP-date, or the service's message form
 * "... retry after 12s ...". Returns milliseconds from `now`, or undefined when nothing is usable.
 */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const inMessage = /retry after (\d+(?:\.\d+)?)\s*s/i.exec(trimmed);
  if (inMessage) return Math.ceil(Number(inMessage[1]) * 1000);
  const date = Date.parse(trimmed);
  if (!Number.isNaN(date)) return Math.max(0, date - now);
  return undefined;
}
