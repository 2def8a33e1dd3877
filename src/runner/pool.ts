import type { HostGate } from "../core/index.js";

/**
 * A work pool with a global limit and a per-host limit. Tasks that must wait (a retry's backoff,
 * a host's Retry-After) go back into the queue with a `notBefore` time instead of holding a slot
 * while they sleep, so other hosts keep moving.
 */
export interface PoolLimits {
  concurrency: number;
  perHostConcurrency: number;
}

interface Queued {
  host: string;
  notBefore: number;
  start: (gateSlot?: number) => void;
}

export class WorkPool {
  private readonly queue: Queued[] = [];
  private readonly activeByHost = new Map<string, number>();
  private readonly hostPausedUntil = new Map<string, number>();
  private readonly hostSerial = new Set<string>();
  private readonly hostInterval = new Map<string, number>();
  private active = 0;
  private timer: NodeJS.Timeout | undefined;

  /**
   * With a gate (several processes crawling one site), a task also needs a slot of the gate for
   * its host: the host's limit, spacing and pauses then hold across the processes.
   */
  constructor(
    private readonly limits: PoolLimits,
    private readonly clock: () => number = Date.now,
    private readonly gate?: HostGate,
  ) {}

  /** Runs `task` when a slot for its host is free and `notBefore` (ms since epoch) has passed. */
  run<T>(host: string, task: () => Promise<T>, notBefore = 0): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({
        host,
        notBefore,
        start: (slot?: number) => {
          task().then(resolve, reject).finally(() => {
            if (slot !== undefined) this.gate!.release(slot);
            this.release(host);
          });
        },
      });
      this.pump();
    });
  }

  /** Holds back every task of a host until `until` (a 429's Retry-After slows only that host). */
  pauseHost(host: string, until: number): void {
    this.hostPausedUntil.set(host, Math.max(until, this.hostPausedUntil.get(host) ?? 0));
    this.gate?.pause(host, until - this.clock());
    this.pump();
  }

  /** One request at a time for a host, starting at least `intervalMs` apart (a crawl `delay`, robots.txt Crawl-delay). */
  spaceHost(host: string, intervalMs: number): void {
    this.hostSerial.add(host);
    this.hostInterval.set(host, intervalMs);
  }

  get pending(): number {
    return this.queue.length;
  }

  get running(): number {
    return this.active;
  }

  private release(host: string): void {
    this.active--;
    const n = (this.activeByHost.get(host) ?? 1) - 1;
    if (n === 0) this.activeByHost.delete(host);
    else this.activeByHost.set(host, n);
    this.pump();
  }

  private hostLimit(host: string): number {
    return this.hostSerial.has(host) ? 1 : this.limits.perHostConcurrency;
  }

  private pump(): void {
    const now = this.clock();
    let earliest = Infinity;
    for (let i = 0; i < this.queue.length && this.active < this.limits.concurrency; ) {
      const item = this.queue[i]!;
      const readyAt = Math.max(item.notBefore, this.hostPausedUntil.get(item.host) ?? 0);
      if (readyAt > now) {
        earliest = Math.min(earliest, readyAt);
        i++;
        continue;
      }
      if ((this.activeByHost.get(item.host) ?? 0) >= this.hostLimit(item.host)) {
        i++;
        continue;
      }
      const interval = this.hostInterval.get(item.host);
      let slot: number | undefined;
      if (this.gate) {
        const taken = this.gate.take(item.host, this.hostLimit(item.host), interval ?? 0);
        if ("waitMs" in taken) {
          // Another process holds the host's slots, or its next request is not due yet.
          this.hostPausedUntil.set(item.host, now + Math.max(1, taken.waitMs));
          earliest = Math.min(earliest, now + Math.max(1, taken.waitMs));
          i++;
          continue;
        }
        slot = taken.slot;
      }
      this.queue.splice(i, 1);
      if (interval) this.hostPausedUntil.set(item.host, now + interval);
      this.active++;
      this.activeByHost.set(item.host, (this.activeByHost.get(item.host) ?? 0) + 1);
      item.start(slot);
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (earliest !== Infinity && this.active < this.limits.concurrency) {
      this.timer = setTimeout(() => this.pump(), Math.max(1, earliest - now));
    }
  }
}
