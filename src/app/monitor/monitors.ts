import type { CheckSummary, ScheduleConfig } from "../../core/index.js";
import { ScrapelineError } from "../../core/index.js";
import type { CheckRecord, MonitorRecord, MonitorTables, NotificationRecord } from "../../store/index.js";
import { openExistingRunStore } from "../common/index.js";

/** A monitor as listed: what it runs, when it runs next, and how its last check went. */
export interface MonitorView {
  id: number;
  name: string;
  source: "file" | "api";
  file: string | null;
  schedule: string;
  timezone: string;
  nextDue: string | null;
  /** scheduled, or removed: its pipeline file left the watched paths (or stopped defining it) at `removedAt`. */
  status: "scheduled" | "removed";
  removedAt?: string;
  lastCheck: { id: number; status: string; startedAt: string; finishedAt: string | null; summary: CheckSummary | null; error: string | null } | null;
  /** Notifications of the last check that were not delivered. */
  failedNotifications: number;
}

export interface CheckView extends Omit<CheckRecord, "owner"> {
  notifications: NotificationRecord[];
}

/** "cron 0 6 * * 1-5" / "every 15m": how a schedule reads in a listing. */
export function describeSchedule(schedule: ScheduleConfig): string {
  if (schedule.everySeconds !== undefined) {
    const s = schedule.everySeconds;
    const text = s % 86_400 === 0 ? `${s / 86_400}d` : s % 3600 === 0 ? `${s / 3600}h` : s % 60 === 0 ? `${s / 60}m` : `${s}s`;
    return `every ${text}`;
  }
  return `cron ${schedule.cron}`;
}

export function monitorView(tables: MonitorTables, monitor: MonitorRecord): MonitorView {
  const last = tables.latestCheck(monitor.id);
  return {
    id: monitor.id,
    name: monitor.name,
    source: monitor.source,
    file: monitor.file,
    schedule: describeSchedule(monitor.schedule),
    timezone: monitor.schedule.timezone,
    nextDue: monitor.goneAt ? null : monitor.nextDue,
    status: monitor.goneAt ? "removed" : "scheduled",
    ...(monitor.goneAt ? { removedAt: monitor.goneAt } : {}),
    lastCheck: last ? { id: last.id, status: last.status, startedAt: last.startedAt, finishedAt: last.finishedAt, summary: last.summary, error: last.error } : null,
    failedNotifications: last ? tables.notifications(last.id).filter((n) => !n.sent).length : 0,
  };
}

/** Every monitor in the database (pipeline files under watch and, with `all`, serve's), by name. */
export function listMonitors(db: string, options: { source?: "file" | "api"; teamId?: number } = {}): MonitorView[] {
  const store = openExistingRunStore(db);
  try {
    const tables = store.monitorTables();
    return tables.list(options).map((m) => monitorView(tables, m));
  } finally {
    store.close();
  }
}

/** One monitor's latest checks, newest first, each with its notifications. */
export function monitorChecks(db: string, name: string, options: { limit?: number } = {}): { monitor: MonitorView; checks: CheckView[] } {
  const store = openExistingRunStore(db);
  try {
    const tables = store.monitorTables();
    const monitor = tables.list().find((m) => m.name === name || String(m.id) === name);
    if (!monitor) throw new ScrapelineError("invalid-input", `no monitor "${name}" in this database; scrapeline monitors lists them`);
    const checks = tables.checks(monitor.id, { limit: options.limit ?? 20 }).map(({ owner: _owner, ...check }) => ({ ...check, notifications: tables.notifications(check.id) }));
    return { monitor: monitorView(tables, monitor), checks };
  } finally {
    store.close();
  }
}
