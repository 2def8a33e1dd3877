import type { ScheduleConfig } from "../../core/index.js";
import { MonitorLoop, type LoopEntry, type LogEvent } from "./loop.js";
import { fileMonitorKey } from "./key.js";
import { openRunStore } from "../common/index.js";
import { markGoneMonitors } from "./watch-gone.js";
import { WatchedFiles, type FileChange } from "./watch-files.js";

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
 * `scrapeline watch`: the scheduled pipeline files under the paths, run by the monitor loop
 * through the same runner and store as `run`. Files are looked at again every reloadMs; one that
 * stops validating keeps its last good version, and the error is logged with file:line:col.
 */
export async function watch(options: WatchOptions): Promise<WatchSummary> {
  const now = options.now ?? (() => new Date());
  const store = openRunStore(options.db);
  const tables = store.monitorTables(now);
  const files = new WatchedFiles(options.paths, options.env);
  const log: LogEvent = (event, fields = {}) => options.log(logLine(now(), event, fields));
  let entries: LoopEntry[] = [];
  let invalidFiles = 0;
  const reload = async () => {
    const changes = await files.refresh();
    for (const change of changes) logChange(change, log);
    invalidFiles = [...files.files.values()].filter((f) => f.errors).length;
    if (changes.length === 0) return;
    const byKey = new Map<string, LoopEntry>();
    for (const { file, text, pipeline } of files.scheduled()) {
      const key = fileMonitorKey(pipeline.name);
      const other = byKey.get(key);
      if (other) {
        log("file.conflict", { file, pipeline: pipeline.name, other: other.file, error: "another file has a pipeline of this name; this one is not run" });
        continue;
      }
      const schedule = pipeline.schedule as ScheduleConfig;
      // Checks run the text that validated, not whatever the file holds when they start.
      byKey.set(key, { file, schedule, ...(text !== undefined ? { text } : {}), monitor: tables.upsert({ key, source: "file", name: pipeline.name, file, schedule }) });
    }
    const previousKeys = new Set(entries.map((e) => e.monitor.key));
    entries = [...byKey.values()];
    const invalid = new Set([...files.files.values()].filter((f) => f.errors && f.errors.length > 0 && !f.pipeline).map((f) => f.file));
    for (const gone of markGoneMonitors(tables, { scheduledKeys: new Set(byKey.keys()), previousKeys, watchedPaths: options.paths, invalidFiles: invalid })) {
      log("monitor.gone", { monitor: gone.name, file: gone.file ?? undefined });
    }
  };
  try {
    await reload();
    const loop = new MonitorLoop({
      db: options.db,
      store,
      tables,
      entries: () => entries,
      refresh: reload,
      refreshMs: options.reloadMs ?? 2000,
      maxParallel: options.maxParallel ?? 2,
      log,
      now,
      ...(options.once ? { once: true } : {}),
      ...(options.allowPrivateNetwork ? { allowPrivateNetwork: true } : {}),
      ...(options.stop ? { stop: options.stop } : {}),
      ...(options.abort ? { abort: options.abort } : {}),
      ...(options.env ? { env: options.env } : {}),
    });
    const summary = await loop.run();
    return { ...summary, invalidFiles };
  } finally {
    store.close();
  }
}

function logChange(change: FileChange, log: LogEvent): void {
  if (change.kind === "invalid") {
    for (const d of change.errors ?? []) log("file.invalid", { file: change.file, at: `${d.file}:${d.line}:${d.column}`, error: `${d.code}: ${d.message}` });
    return;
  }
  log(`file.${change.kind}`, { file: change.file });
}

/** `<time> <event> key=value …`, values quoted when they hold spaces, so a line splits on spaces. */
export function logLine(at: Date, event: string, fields: Record<string, unknown>): string {
  const parts = Object.entries(fields).filter(([, v]) => v !== undefined).map(([k, v]) => ` ${k}=${format(v)}`);
  return `${at.toISOString()} ${event}${parts.join("")}`;
}

function format(value: unknown): string {
  const text = String(value);
  return /[\s"=]/.test(text) ? JSON.stringify(text) : text;
}
