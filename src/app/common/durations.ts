import { ScrapelineError } from "../../core/index.js";

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000 };

/**
 * The duration an environment variable gives (`60s`, `2m`, `500ms`; a bare number is seconds), in
 * milliseconds, or `fallbackMs` when it is unset; less than `minMs`, or not a duration, is refused
 * with an error that says what the variable is for (`means`).
 */
export function durationVariable(env: Readonly<Record<string, string | undefined>>, name: string, options: { fallbackMs: number; minMs: number; means: string }): number {
  const raw = env[name]?.trim();
  if (!raw) return options.fallbackMs;
  const match = /^(\d+)(ms|s|m)?$/.exec(raw);
  const ms = match ? Number(match[1]) * UNIT_MS[match[2] ?? "s"]! : 0;
  if (ms < options.minMs) throw new ScrapelineError("invalid-input", `${name} is ${JSON.stringify(raw)}: give ${options.means}`);
  return ms;
}
