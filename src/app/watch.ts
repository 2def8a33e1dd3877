import type { Pipeline, ScheduleConfig } from "../core/index.js";
import { decide } from "../schedule/index.js";
import { MonitorTables, type CheckRecord, type MonitorRecord } from "../store/index.js";
import { orphaned, runCheck, SELF } from "./monitor-check.js";
import { fileMonitorKey } from "./monitor-key.js";
import { openStore } from "./store.js";
import { WatchedFiles, type FileChange } from "./watch-files.js";
import { Wakeup } from "./wakeup.js";

export interface WatchOptions {
  /** Pipeline files and directories (their *.yaml files, recursively). */
  paths: readonly string[];
  db: string;
  /** Checks running at once, across pipelines (default 2). */
  maxParallel?: number;
  /** Run what is due now (and checks left unfinished), then return. */
  once?: boolean;
  allowPrivateNetwork?: boolean;
  /** Stop starting checks; running ones finish the pages in flight and stay resumable. */
  stop?: AbortSignal;
  /** Abort running checks too. */
  abort?: AbortSignal;
  /** One line per event. */
  log: (line: string) => void;
  now?: () => Date;
  /** How often files are looked at for changes, in milliseconds (default 2000). */
  reloadMs?: number;
  env?: Readonly<Record<string, string | undefined>>;
}

export interface WatchSummary {
  checks: number;
  failed: number;
  /** Files that do not validate (their last good version, if any, was used). */
  invalidFiles: number;
}

/**
 * The watch loop: runs each scheduled pipeline when due, through the same runner and store as
 * `run`. The schedule state is in the database: a slot is claimed before its run starts (so a
 * restart never runs it twice), checks a stopped or killed process left are resumed first, and a
 * slot missed while nothing watched runs once or is skipped as the schedule says. Between events
 * it sleeps until the next due time or file look, whichever is first.
 */
export async function watch(options: WatchOptions): Promise<WatchSummary> {
  const now = options.now ?? (() => new Date());
  const maxParallel = options.maxParallel ?? 2;
  const store = openStore(options.db);
  const tables = new MonitorTables(store.db, now);
  const files = new WatchedFiles(options.paths, options.env);
  const running = new Map<number, Promise<void>>();
  const wakeup = new Wakeup();
  const summary: WatchSummary = { checks: 0, failed: 0, invalidFiles: 0 };
  const log = (event: string, fields: Record<string, unknown> = {}) => options.log(`${now().toISOString()} ${event}${Object.entries(fields).map(([k, v]) => (v === undefined ? "" : ` ${k}=${format(v)}`)).join("")}`);
  const stopped = () => Boolean(options.stop?.aborted || options.abort?.aborted);
  options.stop?.addEventListener("abort", () => wakeup.wake(), { once: true });
  options.abort?.addEventListener("abort", () => wakeup.wake(), { once: true });

  const monitors = new Map<string, { file: string; pipeline: Pipeline; monitor: MonitorRecord }>();
  const reload = async () => {
    const changes = await files.refresh();
    for (const change of changes) logChange(change, log);
    summary.invalidFiles = [...files.files.values()].filter((f) => f.errors).length;
    if (changes.length === 0) return;
    monitors.clear();
    for (const { file, pipeline } of files.scheduled()) {
      const key = fileMonitorKey(pipeline.name);
      const other = monitors.get(key);
      if (other) {
        log("file.conflict", { file, pipeline: pipeline.name, other: other.file, error: "another file has a pipeline of this name; this one is not run" });
        continue;
      }
      monitors.set(key, { file, pipeline, monitor: tables.upsert({ key, source: "file", name: pipeline.name, file, schedule: pipeline.schedule as ScheduleConfig }) });
    }
  };

  const start = (entry: { file: string; monitor: MonitorRecord }, check: CheckRecord, resumed: boolean) => {
    summary.checks++;
    log(resumed ? "check.resumed" : "check.started", { monitor: entry.monitor.name, check: check.id, slot: check.slot, run: check.runId ?? undefined });
    const task = runCheck(tables, store, check, { db: options.db, file: entry.file, ...(options.allowPrivateNetwork ? { allowPrivateNetwork: true } : {}), ...(options.stop ? { stop: options.stop } : {}), ...(options.abort ? { abort: options.abort } : {}), ...(options.env ? { env: options.env } : {}) })
      .then((outcome) => {
        if (outcome.status === "failed") summary.failed++;
        const s = outcome.summary;
        log(`check.${outcome.status}`, { monitor: entry.monitor.name, check: check.id, run: outcome.runId, pages: s?.totalPages, changed: s?.changed, new: s?.new, removed: s?.removed, errors: s?.error, error: outcome.error });
        if (outcome.notificationsFailed > 0) {
          for (const n of tables.notifications(check.id).filter((d) => !d.sent)) log("notify.failed", { monitor: entry.monitor.name, check: check.id, channel: n.channel, target: n.target, event: n.event, attempts: n.attempts, error: n.error });
        }
      })
      .finally(() => {
        running.delete(entry.monitor.id);
        wakeup.wake();
      });
    running.set(entry.monitor.id, task);
  };

  // Checks a stopped or killed process left behind: resumed before anything new starts.
  const known = (monitorId: number) => [...monitors.values()].some((m) => m.monitor.id === monitorId);
  const leftOver = () => tables.unfinishedChecks().filter((c) => !running.has(c.monitorId) && orphaned(c));

  try {
    await reload();
    let nextReload = now().getTime() + (options.reloadMs ?? 2000);
    while (!stopped()) {
      for (const check of leftOver()) {
        if (running.size >= maxParallel) break;
        const entry = [...monitors.values()].find((m) => m.monitor.id === check.monitorId);
        if (!entry) continue;
        tables.adoptCheck(check.id, SELF);
        start(entry, { ...check, status: "running" }, true);
      }
      let wakeAt = options.once ? Infinity : nextReload;
      let waiting = false;
      for (const entry of monitors.values()) {
        if (stopped()) break;
        const monitor = tables.byId(entry.monitor.id)!;
        const schedule = entry.pipeline.schedule!;
        const decision = decide(schedule, monitor.key, now(), { ...(monitor.lastSlot ? { lastSlot: new Date(monitor.lastSlot) } : {}), registeredAt: new Date(monitor.registeredAt) });
        if (decision.action === "wait") {
          tables.setNextDue(monitor.id, decision.nextDue.toISOString());
          wakeAt = Math.min(wakeAt, decision.nextDue.getTime());
          continue;
        }
        const slot = decision.slot.toISOString();
        if (decision.action === "skip-missed") {
          tables.claim(monitor.id, slot, { trigger: "schedule", status: "skipped_missed", error: `${decision.missedSlots + 1} run(s) missed while not watching; missed: skip` });
          log("check.skipped_missed", { monitor: monitor.name, slot, missed: decision.missedSlots + 1 });
          continue;
        }
        if (running.has(monitor.id)) {
          const check = tables.claim(monitor.id, slot, { trigger: "schedule", status: "skipped_overlap", error: "the previous check was still running" });
          if (check) log("check.skipped_overlap", { monitor: monitor.name, check: check.id, slot });
          continue;
        }
        if (running.size >= maxParallel || leftOver().some((c) => c.monitorId === monitor.id)) {
          waiting = true;
          continue;
        }
        const check = tables.claim(monitor.id, slot, { trigger: "schedule", status: "running", owner: SELF });
        if (!check) continue;
        if (decision.late) log("check.late", { monitor: monitor.name, slot, missed: decision.missedSlots });
        start(entry, check, false);
      }
      if (options.once && running.size === 0 && !waiting && !leftOver().some((c) => known(c.monitorId))) break;
      await wakeup.sleep(Math.max(0, Math.min(wakeAt - now().getTime(), 60_000)));
      if (!options.once && now().getTime() >= nextReload) {
        await reload();
        nextReload = now().getTime() + (options.reloadMs ?? 2000);
      }
    }
    if (running.size > 0) log("watch.stopping", { running: running.size });
    await Promise.allSettled([...running.values()]);
    return summary;
  } finally {
    store.close();
  }
}

function logChange(change: FileChange, log: (event: string, fields?: Record<string, unknown>) => void): void {
  if (change.kind === "invalid") {
    for (const d of change.errors ?? []) log("file.invalid", { file: change.file, at: `${d.file}:${d.line}:${d.column}`, error: `${d.code}: ${d.message}` });
    return;
  }
  log(`file.${change.kind}`, { file: change.file });
}

/** key=value with values quoted when they hold spaces, so a line splits on spaces. */
function format(value: unknown): string {
  const text = String(value);
  return /[\s"=]/.test(text) ? JSON.stringify(text) : text;
}

