import { randomUUID } from "node:crypto";
import type { ScheduleConfig, Team } from "../../core/index.js";
import { ScrapelineError } from "../../core/index.js";
import { refusedNotifyTarget } from "../../engines/local/index.js";
import { loadPipelineText } from "../../pipeline/index.js";
import type { MonitorTables, CheckRecord, MonitorRecord, RunsStore } from "../../store/index.js";
import { bad, monitorPipeline, monitorTag, monitorVariables, readMonitorBody, type MonitorDefinition } from "../monitor/index.js";
import { apiMonitorKey } from "../monitor/index.js";
import { MonitorLoop, type LoopEntry } from "../monitor/index.js";
import { isSigned, MonitorSecrets, type StoredDefinition } from "../monitor/index.js";
import { openRunStore } from "../common/index.js";
import { logLine } from "../monitor/index.js";

const DAY_MS = 86_400_000;

export interface ServeMonitorOptions {
  db: string;
  allowPrivateNetwork?: boolean;
  env?: Readonly<Record<string, string | undefined>>;
  clock?: () => number;
  /** Checks running at once across teams (default 2). */
  maxParallel?: number;
  /** Whether a team has a credit left to spend (a due check of a team without is skipped_budget). */
  hasCredit?: (teamId: number) => boolean;
  /** Where the loop's event lines go (default: nowhere). */
  log?: (line: string) => void;
}

/** A monitor as /v2/monitor answers it (a webhook's secret is never shown). */
export interface MonitorAnswer {
  id: string;
  name: string;
  schedule: { cron: string; timezone: string };
  targets: MonitorDefinition["targets"];
  webhook?: { url: string; events: string[]; signed: boolean };
  retentionDays: number;
  status: "active";
  nextRunAt: string | null;
  lastCheck: { id: string; status: string; startedAt: string; finishedAt: string | null } | null;
  createdAt: string;
}

export interface CheckAnswer {
  id: string;
  monitorId: string;
  trigger: string;
  status: string;
  scheduledFor: string | null;
  startedAt: string;
  finishedAt: string | null;
  summary: { totalPages: number; same: number; changed: number; new: number; removed: number; error: number } | null;
  error: string | null;
}

/**
 * The monitors of `scrapeline serve` (/v2/monitor): made, changed and removed per team, kept in
 * the monitoring tables, and run when due by the same loop as `scrapeline watch`.
 */
export class ServeMonitors {
  private readonly store: RunsStore;
  private readonly tables: MonitorTables;
  private readonly loop: MonitorLoop;
  private readonly stop = new AbortController();
  private readonly running: Promise<unknown>;
  private readonly now: () => Date;
  private readonly secrets: MonitorSecrets;

  constructor(private readonly options: ServeMonitorOptions) {
    const clock = options.clock ?? Date.now;
    this.secrets = new MonitorSecrets(options.env ?? process.env);
    this.now = () => new Date(clock());
    this.store = openRunStore(options.db);
    this.tables = this.store.monitorTables(this.now);
    const log = options.log ?? (() => {});
    this.loop = new MonitorLoop({
      db: options.db,
      store: this.store,
      tables: this.tables,
      entries: () => this.tables.list({ source: "api" }).map((m) => this.entry(m)),
      // Changes through the API wake the loop; this only bounds how long it sleeps otherwise.
      refreshMs: 60_000,
      maxParallel: options.maxParallel ?? 2,
      log: (event, fields = {}) => log(logLine(this.now(), event, fields)),
      now: this.now,
      stop: this.stop.signal,
      afterCheck: (entry) => this.prune(entry.monitor),
      admit: (entry) => (entry.monitor.teamId !== null && options.hasCredit && !options.hasCredit(entry.monitor.teamId) ? "the team has used its plan's tokens for this billing period" : undefined),
      ...(options.allowPrivateNetwork ? { allowPrivateNetwork: true } : {}),
      ...(options.env ? { env: options.env } : {}),
    });
    this.running = this.loop.run().catch(() => undefined);
  }

  async create(team: Team, body: unknown): Promise<MonitorAnswer> {
    const definition = readMonitorBody(body);
    const id = randomUUID();
    const key = apiMonitorKey(id);
    this.validate(id, definition);
    await this.checkWebhook(definition);
    const stored = this.secrets.toStored(key, definition);
    const monitor = this.tables.upsert({ key, source: "api", teamId: team.id, name: definition.name, schedule: scheduleOf(definition), definition: stored });
    this.loop.wake();
    return this.answer(monitor);
  }

  list(team: Team): MonitorAnswer[] {
    return this.tables.list({ source: "api", teamId: team.id }).map((m) => this.answer(m));
  }

  get(team: Team, id: string): MonitorAnswer {
    return this.answer(this.find(team, id));
  }

  async update(team: Team, id: string, body: unknown): Promise<MonitorAnswer> {
    const monitor = this.find(team, id);
    const previous = monitor.definition as StoredDefinition;
    const definition = readMonitorBody(body, this.secrets.open(monitor.key, previous).definition);
    this.validate(id, definition);
    const keepsWebhook = typeof body === "object" && body !== null && (body as Record<string, unknown>).webhook === undefined;
    if (!keepsWebhook) {
      await this.checkWebhook(definition);
      // Deleted while its webhook was checked: it stays deleted.
      this.find(team, id);
    }
    const stored = this.secrets.toStored(monitor.key, definition, { previous, ...(keepsWebhook ? { kept: previous.webhook } : {}) });
    const updated = this.tables.upsert({ key: monitor.key, source: "api", teamId: team.id, name: definition.name, schedule: scheduleOf(definition), definition: stored });
    this.loop.wake();
    return this.answer(updated);
  }

  remove(team: Team, id: string): void {
    this.tables.remove(this.find(team, id).id);
    this.loop.wake();
  }

  /** POST /v2/monitor/{id}/run: a check now, outside the schedule. */
  runNow(team: Team, id: string): CheckAnswer {
    const monitor = this.find(team, id);
    if (this.loop.isRunning(monitor.id)) throw new ScrapelineError("invalid-input", "Conflict: a check of this monitor is running; try again when it has finished");
    return checkAnswer(id, this.loop.runNow(this.entry(monitor)));
  }

  checks(team: Team, id: string, limit = 50): CheckAnswer[] {
    const monitor = this.find(team, id);
    return this.tables.checks(monitor.id, { limit }).map((c) => checkAnswer(id, c));
  }

  /** One check with the pages it found changed, new or removed, and its notifications. */
  check(team: Team, id: string, checkId: string): CheckAnswer & { pages: Array<{ url: string; status: string; visibility: string; previousScrapeAt: string | null; diff?: string }>; notifications: unknown[] } {
    const monitor = this.find(team, id);
    const check = /^\d+$/.test(checkId) ? this.tables.check(Number(checkId)) : undefined;
    if (!check || check.monitorId !== monitor.id) throw new ScrapelineError("not-found", "Check not found");
    const pages = check.runId === null ? [] : this.store.pageChanges(check.runId).map(({ url, change }) => ({ url, status: change.changeStatus, visibility: change.visibility, previousScrapeAt: change.previousScrapeAt, ...(change.diff?.text ? { diff: change.diff.text } : {}) }));
    const notifications = this.tables.notifications(check.id).map(({ channel, target, event, sent, status, attempts, error, at }) => ({ channel, target, event, sent, status, attempts, error, at }));
    return { ...checkAnswer(id, check), pages, notifications };
  }

  async close(): Promise<void> {
    this.stop.abort();
    await this.running;
    this.store.close();
  }

  private find(team: Team, id: string): MonitorRecord {
    const monitor = this.tables.byKey(apiMonitorKey(id));
    // Another team's monitor is as absent as one that never was.
    if (!monitor || monitor.teamId !== team.id) throw new ScrapelineError("not-found", "Monitor not found");
    return monitor;
  }

  private entry(monitor: MonitorRecord): LoopEntry {
    const id = monitor.key.slice("api:".length);
    const { definition, unreadable } = this.secrets.open(monitor.key, monitor.definition as StoredDefinition);
    return { monitor, schedule: monitor.schedule, file: `monitor ${id}`, text: monitorPipeline(id, definition, { allowPrivateNetwork: Boolean(this.options.allowPrivateNetwork) }), env: monitorVariables(definition), ...(unreadable ? { refused: unreadable } : {}) };
  }

  /** Checks the pipeline a definition makes, naming the field of the first error. */
  private validate(id: string, definition: MonitorDefinition): void {
    const text = monitorPipeline(id, definition, { allowPrivateNetwork: Boolean(this.options.allowPrivateNetwork) });
    const loaded = loadPipelineText("monitor", text, { env: monitorVariables(definition) });
    const error = loaded.diagnostics.find((d) => d.severity === "error");
    if (!error) return;
    const lines = text.split("\n");
    const line = lines[error.line - 1] ?? "";
    if (/"(cron|timezone)"/.test(line)) throw bad(`schedule.${/"cron"/.test(line) ? "cron" : "timezone"}`, error.message);
    let target = -1;
    for (let i = 0; i < error.line; i++) {
      const m = /"id": "target-(\d+)"/.exec(lines[i] ?? "");
      if (m) target = Number(m[1]) - 1;
    }
    throw bad(target >= 0 ? `targets[${target}]` : "body", error.message);
  }

  /** A webhook the network policy would refuse to send to is refused now, not at the first notification. */
  private async checkWebhook(definition: MonitorDefinition): Promise<void> {
    if (!definition.webhook) return;
    const refused = await refusedNotifyTarget(definition.webhook.url, { allowPrivateNetwork: Boolean(this.options.allowPrivateNetwork) });
    if (refused) throw bad("webhook.url", refused);
  }

  private answer(monitor: MonitorRecord): MonitorAnswer {
    const d = monitor.definition as StoredDefinition;
    const id = monitor.key.slice("api:".length);
    const last = this.tables.latestCheck(monitor.id);
    return {
      id,
      name: d.name,
      schedule: d.schedule,
      targets: d.targets,
      ...(d.webhook ? { webhook: { url: d.webhook.url, events: d.webhook.events, signed: isSigned(d) } } : {}),
      retentionDays: d.retentionDays,
      status: "active",
      nextRunAt: monitor.nextDue,
      lastCheck: last ? { id: String(last.id), status: last.status, startedAt: last.startedAt, finishedAt: last.finishedAt } : null,
      createdAt: monitor.registeredAt,
    };
  }

  /** Snapshots of the monitor's pages older than its retention, except each page's latest. */
  private prune(monitor: MonitorRecord): void {
    const d = monitor.definition as MonitorDefinition | null;
    if (!d) return;
    const before = new Date(this.now().getTime() - d.retentionDays * DAY_MS).toISOString();
    this.tables.pruneSnapshots(monitorTag(monitor.key.slice("api:".length)), before);
  }
}

function scheduleOf(d: MonitorDefinition): ScheduleConfig {
  return { cron: d.schedule.cron, timezone: d.schedule.timezone, jitterSeconds: 0, missed: "once", minIntervalSeconds: 60 };
}

function checkAnswer(monitorId: string, c: CheckRecord): CheckAnswer {
  return { id: String(c.id), monitorId, trigger: c.trigger, status: c.status, scheduledFor: c.slot.startsWith("manual:") ? null : c.slot, startedAt: c.startedAt, finishedAt: c.finishedAt, summary: c.summary, error: c.error };
}
