import { hostname } from "node:os";
import { durationVariable } from "../common/index.js";
import type { CheckRecord, Lease } from "../../store/index.js";

/** This process, as the owner of the checks it runs. */
export const SELF = { host: hostname(), pid: process.pid };

/** How long a watcher holds a check or a queued notification without renewing it (`60s`, `2m`, `500ms`; a bare number is seconds). */
export const LEASE_VARIABLE = "SCRAPELINE_CHECK_LEASE";

/** The lease length `SCRAPELINE_CHECK_LEASE` gives (60 s when unset), in milliseconds. */
export function leaseMs(env: Readonly<Record<string, string | undefined>>): number {
  return durationVariable(env, LEASE_VARIABLE, { fallbackMs: 60_000, minMs: 1000, means: "how long a watcher holds a check without renewing it, such as 60s, 2m or 1500ms (at least 1s)" });
}

/**
 * The leases this process takes on the checks it runs and the notifications it sends: each lasts
 * `ms` from when it is taken or renewed; the loop renews them every third of that, so a watcher
 * that stops renewing (killed, cut off from the database) loses them after `ms`, and a live one
 * misses two renewals before it does. Their ends are written and compared by the store's clock
 * (the database's on PostgreSQL), never this process's: watchers whose clocks disagree agree on them.
 */
export class Leases {
  constructor(readonly ms: number) {}

  /** A lease held by this process from when the store takes it. */
  next(): Lease {
    return { owner: SELF, ms: this.ms };
  }

  /** How often the loop renews what it holds. */
  get renewEveryMs(): number {
    return Math.max(250, Math.floor(this.ms / 3));
  }

  /** How long the lease of another process's check had left when it was read, in ms (undefined: it has none, or it is this process's). */
  leftOf(check: CheckRecord): number | undefined {
    if (check.leaseLeftMs === null || !check.owner || isSelf(check.owner)) return undefined;
    return check.leaseLeftMs;
  }

  /**
   * Whether the process that owns a check is gone, so the check is for this process to take over:
   * it was interrupted or has no owner, its owner's lease has ended, or its owner is a process of
   * this host that no longer runs.
   */
  orphaned(check: CheckRecord): boolean {
    if (check.status === "interrupted" || !check.owner) return true;
    if (isSelf(check.owner)) return false;
    if (check.leaseLeftMs !== null && check.leaseLeftMs < 0) return true;
    if (check.owner.host !== SELF.host) return false;
    try {
      process.kill(check.owner.pid, 0);
      return false;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === "ESRCH";
    }
  }
}

function isSelf(owner: { host: string; pid: number }): boolean {
  return owner.host === SELF.host && owner.pid === SELF.pid;
}
