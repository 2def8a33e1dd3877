/** When a pipeline runs by itself (the pipeline's `schedule`). Exactly one of cron and every is set. */
export interface ScheduleConfig {
  /** 5 or 6 field cron pattern (seconds first when 6), or a name such as @hourly. */
  cron?: string;
  /** Fixed interval in seconds (`every: 15m`), counted from the Unix epoch in UTC. */
  everySeconds?: number;
  /** IANA time zone the cron pattern is read in; UTC by default. */
  timezone: string;
  /** Each run starts up to this many seconds late, by a fixed offset per pipeline. */
  jitterSeconds: number;
  /** A run missed while nothing was watching runs once, or is skipped. */
  missed: "once" | "skip";
  /** The shortest gap between two runs the file may ask for, in seconds. */
  minIntervalSeconds: number;
}

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** "15m" → 900; undefined when the text is not a number followed by s, m, h or d. */
export function parseInterval(text: string): number | undefined {
  const match = /^\s*(\d+)\s*([smhd])\s*$/.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * UNITS[match[2]!]!;
}

/** Whether the runtime knows an IANA time zone name. */
export function knownTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * A monitor check's status, as the hosted service names them, plus running, interrupted (to be
 * resumed) and skipped_missed (a slot that fell due while nothing watched, with `missed: skip`).
 */
export type CheckStatus = "running" | "completed" | "failed" | "partial" | "skipped_overlap" | "skipped_budget" | "skipped_missed" | "interrupted";

/** What a check found: the service's summary. */
export interface CheckSummary {
  totalPages: number;
  same: number;
  changed: number;
  new: number;
  removed: number;
  error: number;
  /** Of the failed pages, those the site answered with a block or challenge page (never taken for a change). */
  blocked?: number;
}
