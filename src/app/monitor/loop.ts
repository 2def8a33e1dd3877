import { randomUUID } from "node:crypto";
import type { CheckSummary, ScheduleConfig } from "../../core/index.js";
import { ScrapelineError } from "../../core/index.js";
import { decide } from "../../schedule/index.js";
import type { CheckRecord, MonitorRecord, MonitorTables, RunsStore } from "../../store/index.js";
import { isDatabaseUrl } from "../db-path.js";
import { runCheck, type CheckOutcome } from "./check.js";
import { leaseMs, Leases, SELF } from "./lease.js";
import { Wakeup } from "./wakeup.js";

/** A monitor the loop runs: its record, its schedule, and the pipeline a check runs. */
export interface LoopEntry {
  monitor: MonitorRecord;
  schedule: ScheduleConfig;
  /** The pipeline file (or, with `text`, the name diagnostics give it). */
  file: string;
  text?: string;
  /** Variables for the text's ${VAR}s, over the loop's environment. */
  env?: Record<string, string>;
  /** Why its checks cannot run as it is (each fails with this, nothing is fetched or sent). */
  refused?: string;
}

/** How soon a monitor another watcher was claiming is looked at again, in milliseconds. */
const RECHECK_MS = 250;

export type LogEvent = (event: string, fields?: Record<string, unknown>) => void;

export interface LoopOptions {
  db: string;
  store: RunsStore;
  tables: MonitorTables;
  /** The monitors to run, asked again after every refresh. */
  entries: () => LoopEntry[];
  /** Looks for changed monitors (files), every refreshMs. */
  refresh?: () => Promise<void>;
  refreshMs?: number;
  maxParallel: number;
  once?: boolean;
  allowPrivateNetwork?: boolean;
  stop?: AbortSignal;
  abort?: AbortSignal;
  log: LogEvent;
  now: () => Date;
  env?: Readonly<Record<string, string | undefined>>;
  /** Why a due check may not start (serve: the team has no credit left); it is recorded as skipped_budget. */
  admit?: (entry: LoopEntry) => string | undefined;
  /** Called when a check ended (serve prunes old snapshots here). */
  afterCheck?: (entry: LoopEntry, outcome: CheckOutcome) => void;
}

export interface LoopSummary {
  checks: number;
  failed: number;
}

/**
 * Runs monitors when due. The schedule state is in the database: a slot is claimed before its run
 * starts (so a restart, or another watcher on the same database, never runs it twice), checks a
 * stopped or killed process left are resumed first, and a slot missed while nothing watched runs
 * once or is skipped as the schedule says. The checks it runs are leased and the lease renewed
 * while they run: one whose watcher stopped renewing is taken over by another once it ends.
 * Between events it sleeps until the next due time, refresh or lease end, whichever is first.
 */
export class MonitorLoop {
  private readonly running = new Map<number, Promise<void>>();
  /** The checks running here, by id, each with what stops it when another watcher took it over. */
  private readonly held = new Map<number, AbortController>();
  private readonly wakeup = new Wakeup();
  private readonly summary: LoopSummary = { checks: 0, failed: 0 };
  private readonly leases: Leases;

  constructor(private readonly options: LoopOptions) {
    this.leases = new Leases(leaseMs(options.env ?? process.env));
    options.stop?.addEventListener("abort", () => this.wakeup.wake(), { once: true });
    options.abort?.addEventListener("abort", () => this.wakeup.wake(), { once: true });
  }

  /** Looks at the monitors again now (one was made, changed or removed). */
  wake(): void {
    this.wakeup.wake();
  }

  /** Whether a monitor's check is running. */
  isRunning(monitorId: number): boolean {
    return this.running.has(monitorId);
  }

  /** Starts a check of a monitor now, outside its schedule; a monitor already running is a conflict. */
  runNow(entry: LoopEntry): CheckRecord {
    if (this.running.has(entry.monitor.id)) throw new ScrapelineError("invalid-input", "a check of this monitor is already running");
    const check = this.options.tables.claim(entry.monitor.id, `manual:${this.options.now().toISOString()}:${randomUUID().slice(0, 8)}`, { trigger: "manual", status: "running", owner: SELF, leaseMs: this.leases.ms, advance: false });
    if (!check) throw new ScrapelineError("invalid-input", "a check of this monitor was started this very moment");
    this.start(entry, check, false);
    return check;
  }

  async run(): Promise<LoopSummary> {
    const { options, leases } = this;
    const { tables } = options;
    const stopped = () => Boolean(options.stop?.aborted || options.abort?.aborted);
    const refreshMs = options.refreshMs ?? 2000;
    // --once runs what was due when it started: slots that come due while it works wait for the next call.
    const startedAt = options.now();
    const decideAt = () => (options.once ? startedAt : options.now());
    let nextRefresh = options.now().getTime() + refreshMs;
    const renewal = setInterval(() => this.renew(), leases.renewEveryMs);
    renewal.unref();
    try {
      while (!stopped()) {
        // Each watcher goes through the monitors in an order of its own, so watchers sharing a
        // database claim different monitors first instead of all contending for the same ones.
        const entries = shuffled(options.entries());
        const byId = new Map(entries.map((e) => [e.monitor.id, e]));
        const monitors = new Map(tables.list().map((m) => [m.id, m]));
        let unfinished = tables.unfinishedChecks();
        const leftOver = () => unfinished.filter((c) => byId.has(c.monitorId) && !this.running.has(c.monitorId) && leases.orphaned(c));
        const orphans = leftOver();
        for (const check of orphans) {
          if (this.running.size >= options.maxParallel) break;
          // Of watchers taking the same check at once, one gets it.
          const taken = tables.adoptCheck(check.id, check.owner, leases.next());
          if (taken) this.start(byId.get(check.monitorId)!, taken, true);
        }
        if (orphans.length > 0) unfinished = tables.unfinishedChecks();
        let wakeAt = options.once ? Infinity : nextRefresh;
        // A check another watcher holds is looked at again when its lease ends (counted from this
        // pass: its end is on the store's clock, which this process's may not agree with).
        const passAt = options.now().getTime();
        for (const check of unfinished) {
          const left = leases.leftOf(check);
          if (left !== undefined && left >= 0) wakeAt = Math.min(wakeAt, passAt + left + 1);
        }
        let waiting = false;
        for (const entry of entries) {
          if (stopped()) break;
          const result = this.consider(entry, monitors.get(entry.monitor.id), unfinished, decideAt());
          if (result === "waiting") waiting = true;
          else if (result !== undefined) wakeAt = Math.min(wakeAt, result);
        }
        if (options.once && this.running.size === 0 && !waiting) {
          unfinished = tables.unfinishedChecks();
          if (leftOver().length === 0) break;
        }
        await this.wakeup.sleep(Math.max(0, Math.min(wakeAt - options.now().getTime(), 60_000)));
        if (!options.once && options.now().getTime() >= nextRefresh) {
          await options.refresh?.();
          nextRefresh = options.now().getTime() + refreshMs;
        }
      }
      if (this.running.size > 0) options.log("watch.stopping", { running: this.running.size });
      await Promise.allSettled([...this.running.values()]);
    } finally {
      clearInterval(renewal);
    }
    return this.summary;
  }

  /**
   * Moves on the lease of the checks running here. One this process no longer holds (it could not
   * renew in time and another watcher took it over) is stopped: the taker finishes it.
   */
  private renew(): void {
    if (this.held.size === 0) return;
    let still: Set<number>;
    try {
      still = new Set(this.options.tables.renewLeases(this.leases.next()));
    } catch (error) {
      this.options.log("watch.lease_not_renewed", { error: error instanceof Error ? error.message : String(error) });
      return;
    }
    for (const [checkId, stop] of this.held) {
      if (still.has(checkId) || stop.signal.aborted) continue;
      this.options.log("check.taken_over", { check: checkId, note: "its lease ended before this process renewed it; another process finishes it" });
      stop.abort();
    }
  }

  /**
   * Decides about one monitor (as read at the start of this pass, with the unfinished checks then):
   * starts its check, or says when it is due next ("waiting": no place free).
   */
  private consider(entry: LoopEntry, monitor: MonitorRecord | undefined, unfinished: readonly CheckRecord[], at: Date): number | "waiting" | undefined {
    const { tables, log, maxParallel } = this.options;
    if (!monitor) return undefined;
    // A pipeline file that has never been checked is due at once (watch): its first check is the baseline.
    const decision = decide(entry.schedule, monitor.key, at, { ...(monitor.lastSlot ? { lastSlot: new Date(monitor.lastSlot) } : {}), registeredAt: new Date(monitor.registeredAt), baselineFirst: monitor.source === "file" });
    if (decision.action === "wait") {
      if (monitor.nextDue !== decision.nextDue.toISOString()) tables.setNextDue(monitor.id, decision.nextDue.toISOString());
      return decision.nextDue.getTime();
    }
    const slot = decision.slot.toISOString();
    if (decision.action === "skip-missed") {
      const check = tables.claim(monitor.id, slot, { trigger: "schedule", status: "skipped_missed", error: `${decision.missedSlots + 1} run(s) missed while not watching; missed: skip`, lastSlot: monitor.lastSlot });
      if (check) log("check.skipped_missed", { monitor: monitor.name, slot, missed: decision.missedSlots + 1 });
      return at.getTime();
    }
    // Its previous check still runs, here or in another live process on the same database.
    const busyElsewhere = () => unfinished.some((c) => c.monitorId === monitor.id && c.status === "running" && !(c.owner?.pid === SELF.pid && c.owner.host === SELF.host) && !this.leases.orphaned(c));
    if (this.running.has(monitor.id) || busyElsewhere()) {
      const check = tables.claim(monitor.id, slot, { trigger: "schedule", status: "skipped_overlap", error: "the previous check was still running", lastSlot: monitor.lastSlot });
      if (check) log("check.skipped_overlap", { monitor: monitor.name, check: check.id, slot });
      return undefined;
    }
    if (this.running.size >= maxParallel || unfinished.some((c) => c.monitorId === monitor.id && this.leases.orphaned(c))) return "waiting";
    const refused = this.options.admit?.(entry);
    if (refused) {
      const check = tables.claim(monitor.id, slot, { trigger: "schedule", status: "skipped_budget", error: refused, lastSlot: monitor.lastSlot });
      if (check) log("check.skipped_budget", { monitor: monitor.name, check: check.id, slot, error: refused });
      return undefined;
    }
    const check = tables.claim(monitor.id, slot, { trigger: "schedule", status: "running", owner: SELF, leaseMs: this.leases.ms, lastSlot: monitor.lastSlot });
    // Another watcher claimed it (or is claiming it): the next pass reads what it did.
    if (!check) return this.options.now().getTime() + RECHECK_MS;
    if (decision.late) log("check.late", { monitor: monitor.name, slot, missed: decision.missedSlots });
    this.start({ ...entry, monitor }, check, false, decision.baseline);
    return undefined;
  }

  private start(entry: LoopEntry, check: CheckRecord, resumed: boolean, baseline = false): void {
    const { options } = this;
    this.summary.checks++;
    options.log(resumed ? "check.resumed" : "check.started", { monitor: entry.monitor.name, check: check.id, slot: check.slot, run: check.runId ?? undefined, ...(baseline ? { note: "first check: baseline" } : {}) });
    const takenOver = new AbortController();
    this.held.set(check.id, takenOver);
    const abort = options.abort ? AbortSignal.any([options.abort, takenOver.signal]) : takenOver.signal;
    const task = runCheck(options.tables, options.store, check, {
      db: options.db,
      file: entry.file,
      ...(entry.text !== undefined ? { text: entry.text } : {}),
      ...(options.allowPrivateNetwork ? { allowPrivateNetwork: true } : {}),
      ...(options.stop ? { stop: options.stop } : {}),
      abort,
      lease: () => this.leases.next(),
      // On PostgreSQL the checks share the loop's connection thread instead of each opening its own.
      ...(isDatabaseUrl(options.db) ? { runStore: options.store } : {}),
      ...(options.env || entry.env ? { env: { ...(options.env ?? process.env), ...(entry.env ?? {}) } } : {}),
      ...(entry.refused !== undefined ? { refused: entry.refused } : {}),
    })
      .then((outcome) => {
        if (outcome.status === "failed") this.summary.failed++;
        logOutcome(options.log, entry.monitor.name, check.id, outcome);
        if (outcome.notificationsFailed > 0) {
          for (const n of options.tables.notifications(check.id).filter((d) => !d.sent)) options.log("notify.failed", { monitor: entry.monitor.name, check: check.id, channel: n.channel, target: n.target, event: n.event, attempts: n.attempts, error: n.error });
        }
        options.afterCheck?.(entry, outcome);
      })
      .finally(() => {
        this.held.delete(check.id);
        this.running.delete(entry.monitor.id);
        this.wakeup.wake();
      });
    this.running.set(entry.monitor.id, task);
  }
}

function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function logOutcome(log: LogEvent, name: string, checkId: number, outcome: CheckOutcome): void {
  const s: CheckSummary | undefined = outcome.summary;
  log(`check.${outcome.status}`, { monitor: name, check: checkId, run: outcome.runId, pages: s?.totalPages, changed: s?.changed, new: s?.new, removed: s?.removed, errors: s?.error, ...(s?.blocked ? { blocked: s.blocked } : {}), error: outcome.error });
}
