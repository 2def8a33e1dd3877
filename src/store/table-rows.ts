// serve's and monitors' records as read from their rows, the same on both stores (integers that a
// database hands back as text, PostgreSQL's sums and counts, are read with Number).
import type { CheckStatus, CheckSummary, Delivery, OutgoingNotification, ScheduleConfig, ServeJob, ServeJobKind, ServeJobStatus, Team, ThreatPolicy } from "../core/index.js";
import { DEFAULT_THREAT_POLICY, type CheckRecord, type MonitorRecord, type NotificationRecord, type QueuedNotification } from "./tables.js";
import type { Row } from "./rows.js";

export type { Row };

export function toTeam(row: Row): Team {
  const policy = row.threat_policy ? (JSON.parse(row.threat_policy as string) as ThreatPolicy) : DEFAULT_THREAT_POLICY;
  return {
    id: row.id as number,
    name: row.name as string,
    planTokens: row.plan_tokens as number,
    periodDays: row.period_days as number,
    periodStart: row.period_start as string,
    rateLimit: row.rate_limit as number,
    maxConcurrentJobs: row.max_concurrent_jobs as number,
    threatPolicy: { ...DEFAULT_THREAT_POLICY, ...policy },
    createdAt: row.created_at as string,
  };
}

export function toJob(row: Row): ServeJob {
  return {
    id: row.id as string,
    teamId: row.team_id as number,
    kind: row.kind as ServeJobKind,
    runId: (row.run_id as number | null) ?? null,
    status: row.status as ServeJobStatus,
    url: (row.url as string | null) ?? null,
    total: (row.total as number | null) ?? null,
    createdAt: row.created_at as string,
    finishedAt: (row.finished_at as string | null) ?? null,
    error: (row.error as string | null) ?? null,
  };
}

export const toMonitor = (r: Row): MonitorRecord => ({
  id: r.id as number,
  key: r.key as string,
  source: r.source as MonitorRecord["source"],
  teamId: (r.team_id as number | null) ?? null,
  name: r.name as string,
  file: (r.file as string | null) ?? null,
  schedule: JSON.parse(r.schedule as string) as ScheduleConfig,
  definition: r.definition ? JSON.parse(r.definition as string) : null,
  registeredAt: r.registered_at as string,
  lastSlot: (r.last_slot as string | null) ?? null,
  nextDue: (r.next_due as string | null) ?? null,
  goneAt: (r.gone_at as string | null) ?? null,
});

/** A check as read when the store's clock said `nowMs` (its lease's time left is counted from it). */
export const toCheck = (r: Row, nowMs: number): CheckRecord => ({
  id: r.id as number,
  monitorId: r.monitor_id as number,
  slot: r.slot as string,
  trigger: r.trigger as CheckRecord["trigger"],
  status: r.status as CheckStatus,
  runId: (r.run_id as number | null) ?? null,
  startedAt: r.started_at as string,
  finishedAt: (r.finished_at as string | null) ?? null,
  summary: r.summary ? (JSON.parse(r.summary as string) as CheckSummary) : null,
  error: (r.error as string | null) ?? null,
  owner: r.owner_pid ? { host: r.owner_host as string, pid: r.owner_pid as number } : null,
  leaseUntil: (r.lease_until as string | null) ?? null,
  leaseLeftMs: r.lease_until ? Date.parse(r.lease_until as string) - nowMs : null,
});


export const toQueued = (r: Row): QueuedNotification => ({ id: r.id as number, channelIndex: r.channel_index as number, message: JSON.parse(r.message as string) as OutgoingNotification });

export const toNotification = (r: Row): NotificationRecord => ({
  id: r.id as number,
  checkId: r.check_id as number,
  channel: r.channel as Delivery["channel"],
  target: r.target as string,
  event: r.event as Delivery["event"],
  sent: Number(r.sent) === 1,
  ...(r.status !== null ? { status: r.status as number } : {}),
  attempts: r.attempts as number,
  ...(r.error !== null ? { error: r.error as string } : {}),
  at: r.at as string,
});
