// What the commands built on the store (serve, watch, monitors, keys, teams, the web UI) keep in it,
// as both stores keep it: SQLite (./sqlite/) and PostgreSQL (./postgres/). Each store hands these out.
import type {
  ApiKeyRecord, ChangeTrackingResult, CheckStatus, CheckSummary, Delivery, Document, NotifyChannel, OutgoingNotification,
  RunRecord, ScheduleConfig, ServeJob, ServeJobKind, ServeJobStatus, SnapshotRecord, Team, ThreatPolicy,
} from "../core/index.js";
import type { FetchedPages } from "./fetched-answer.js";

export const DEFAULT_THREAT_POLICY: ThreatPolicy = { enabled: false, enforced: false, overridesAllowed: true };

/** The server that owns a database's jobs. */
export interface ServeOwner {
  pid: number;
  host: string;
  startedAt: string;
}

/** A serve replica of a PostgreSQL database, as its row says: who it is and when it last said it was alive. */
export interface ServeReplica {
  token: string;
  pid: number;
  host: string;
  startedAt: string;
  lastSeen: string;
}

/** A job taken over from a replica found dead: the job, and the replica that ran it (undefined: a row with no replica, left by an older server). */
export interface TakenOverJob {
  job: ServeJob;
  from: ServeReplica | undefined;
}

/** A team's one-minute window of work-starting requests, as a request found it. */
export interface RequestWindow {
  /** When the window started (ms since the epoch). */
  start: number;
  /** Requests counted in it before this one. */
  count: number;
  taken: boolean;
}

/** How long a team's request window lasts. */
export const REQUEST_WINDOW_MS = 60_000;

export interface NewTeam {
  name: string;
  planTokens: number;
  periodDays: number;
  rateLimit: number;
  maxConcurrentJobs: number;
}

/** `scrapeline serve`'s teams, their API keys (sha256 hashes only), their jobs, their usage, and the server's claim on the database. */
export interface ServeTables {
  createTeam(team: NewTeam): Team;
  /** Changes the given settings of a team; the others stay. */
  updateTeam(id: number, changes: Partial<Pick<Team, "planTokens" | "periodDays" | "rateLimit" | "maxConcurrentJobs" | "threatPolicy">>): void;
  teamByName(name: string): Team | undefined;
  teams(): Team[];
  addKey(teamId: number, prefix: string, keyHash: string): number;
  /** The team a key (by its hash) belongs to, when the key exists and is not revoked. */
  teamByKeyHash(keyHash: string): Team | undefined;
  keys(): ApiKeyRecord[];
  /** Revokes the keys of these ids; returns how many were revoked. */
  revokeKeys(ids: number[]): number;
  /**
   * Records a job, running. With `within`, only while the team's running jobs of those kinds (on
   * every replica) are fewer than `max`, checked and recorded at once: false, and nothing recorded, otherwise.
   */
  createJob(job: { id: string; teamId: number; kind: ServeJobKind; url: string | null; total: number | null }, within?: { kinds: readonly ServeJobKind[]; max: number }): boolean;
  /** A team's jobs of the given kinds still running, on every replica sharing the database, oldest first. */
  runningJobs(teamId: number, kinds: readonly ServeJobKind[]): ServeJob[];
  setJobRun(id: string, runId: number): void;
  finishJob(id: string, status: ServeJobStatus, fields?: { total?: number; error?: string }): void;
  /** The URLs of a finished job's pages, in the order they were stored. */
  setJobPages(id: string, urls: readonly string[]): void;
  jobPages(id: string): string[] | undefined;
  job(id: string): ServeJob | undefined;
  /** A team's jobs of one kind, newest first, created before `before` (an ISO time) when given; at most `limit`. */
  jobsOf(teamId: number, kind: ServeJobKind, limit: number, before?: string): ServeJob[];
  /** When the team's latest job that succeeded finished, if it finished at or after `since`. */
  lastSuccess(teamId: number, since: string): string | undefined;
  /**
   * Claims the database for a server started with `token`. Returns the live server holding it
   * instead (and changes nothing) when the store allows one server only and another holds it.
   */
  claimServer(token: string): ServeOwner | undefined;
  /**
   * Counts a work-starting request of a team in its one-minute window (which starts at its first
   * request), unless the window already holds `limit`: then nothing is counted and `taken` is
   * false. On SQLite the one server counts in memory; on PostgreSQL the replicas count together.
   */
  takeRequest(teamId: number, limit: number, nowMs: number): RequestWindow;
  /**
   * Whether a job this server runs was cancelled by another replica sharing the database
   * (PostgreSQL). On SQLite one server holds the database, so cancels go through it: never.
   */
  cancelledElsewhere(id: string): boolean;
  /** Gives the claim up, when `token` still holds it. */
  releaseServer(token: string): void;
  /** Whether other serve replicas may share the database (PostgreSQL); then they keep each other alive with heartbeats. */
  sharedByReplicas(): boolean;
  /**
   * A replica's heartbeat: its row's last_seen becomes now. A replica that others took for dead
   * (and whose jobs they took over) gets its row back: false then.
   */
  heartbeat(token: string): boolean;
  /**
   * Replicas other than `token` that are dead: their heartbeat is older than `leaseMs`, or they
   * are on this host and their process is gone.
   */
  deadServers(token: string, leaseMs: number): ServeReplica[];
  /**
   * Takes over what dead replicas left, for the replica `token`, once: in one transaction (one
   * replica at a time) their rows go and their unfinished jobs (and those of no replica) become
   * `token`'s. Another replica taking over at the same time finds nothing left.
   */
  takeOverDead(token: string, leaseMs: number): TakenOverJob[];
  /** Records that the replica `token` holds a live browser session (PostgreSQL; one server on SQLite holds them all). */
  holdBrowserSession(id: string, teamId: number, token: string): void;
  dropBrowserSession(id: string): void;
  /** The live replica holding a team's browser session, when one does. */
  browserSessionHolder(id: string, teamId: number): ServeReplica | undefined;
  /** Credits the team's jobs (of the given kinds; all, monitors' checks too, when none are given) started in [since, until) have used so far. */
  creditsUsedSince(teamId: number, since: string, kinds?: readonly ServeJobKind[], until?: string): number;
  /** Credits the runs of the team's monitor checks started in [since, until) have used, deleted monitors' too. */
  monitorCreditsSince(teamId: number, since: string, until?: string): number;
}

export interface MonitorRecord {
  id: number;
  key: string;
  source: "file" | "api";
  teamId: number | null;
  name: string;
  file: string | null;
  schedule: ScheduleConfig;
  /** What an API monitor runs (its request body); null for pipeline files. */
  definition: unknown;
  registeredAt: string;
  lastSlot: string | null;
  nextDue: string | null;
  /** When its pipeline file left the watched paths (or stopped defining it); null while it is scheduled. */
  goneAt: string | null;
}

export interface CheckRecord {
  id: number;
  monitorId: number;
  slot: string;
  trigger: "schedule" | "manual";
  status: CheckStatus;
  runId: number | null;
  startedAt: string;
  finishedAt: string | null;
  summary: CheckSummary | null;
  error: string | null;
  owner: { host: string; pid: number } | null;
  /** Until when its owner holds it unless the owner renews the lease (null: checks from before leases, and finished ones). */
  leaseUntil: string | null;
  /**
   * How long its lease had left when it was read, in ms, by the store's clock: the database's on
   * PostgreSQL (so watchers whose clocks disagree agree on it), the tables' own on SQLite. Negative
   * once the lease ended; null when it has none.
   */
  leaseLeftMs: number | null;
}

/**
 * A watcher's hold on the checks and queued notifications it works on: who holds them, and for how
 * long unless renewed, in ms from when the store takes or renews it (by its clock: see leaseLeftMs).
 */
export interface Lease {
  owner: { host: string; pid: number };
  ms: number;
}

export interface NotificationRecord extends Delivery {
  id: number;
  checkId: number;
  at: string;
}

/** A notification queued in a check's outbox and not settled yet. */
export interface QueuedNotification {
  id: number;
  channelIndex: number;
  message: OutgoingNotification;
}

export interface ClaimOptions {
  trigger: CheckRecord["trigger"];
  status: CheckStatus;
  owner?: { host: string; pid: number };
  /** A running check's lease, in ms from the claim by the store's clock. */
  leaseMs?: number;
  error?: string;
  /** Moves the monitor's last slot (default true). */
  advance?: boolean;
  /** The monitor's last slot as the decision to claim read it: the claim is made only while it still is. */
  lastSlot?: string | null;
}

/** Monitors, their checks (one per schedule slot), the notifications they sent, and the outbox of those about to be sent. */
export interface MonitorTables {
  /** Creates the monitor of `key`, or updates its name, file, schedule and definition; its state stays. */
  upsert(monitor: { key: string; source: MonitorRecord["source"]; teamId?: number; name: string; file?: string; schedule: ScheduleConfig; definition?: unknown }): MonitorRecord;
  byKey(key: string): MonitorRecord | undefined;
  byId(id: number): MonitorRecord | undefined;
  list(options?: { source?: MonitorRecord["source"]; teamId?: number }): MonitorRecord[];
  /** Marks a monitor deleted; its checks stay readable by id. */
  remove(id: number): void;
  /** Marks a pipeline file's monitor gone: not scheduled any more, its checks kept. */
  markGone(id: number): void;
  setNextDue(id: number, nextDue: string | null): void;
  /**
   * Claims a slot: records its check and moves the monitor's last slot, at once. A slot already
   * claimed gives undefined; so does, with `lastSlot`, a monitor whose last slot is no longer the
   * one the decision read (another watcher claimed since) or that another is claiming this moment.
   */
  claim(monitorId: number, slot: string, options: ClaimOptions): CheckRecord | undefined;
  setCheckRun(checkId: number, runId: number): void;
  /**
   * Takes over an unfinished check left by a process that is gone (or whose lease ended), with its
   * queued notifications, when `previous` (its owner as read) still owns it: of several watchers
   * taking it at once, one gets it. Returns the check as taken, or undefined when another took it.
   */
  adoptCheck(checkId: number, previous: CheckRecord["owner"], lease: Lease): CheckRecord | undefined;
  /** Moves on the lease of the running checks and queued notifications its owner holds; returns the ids of the checks it still holds. */
  renewLeases(lease: Lease): number[];
  /** Records how a check ended; with `owner`, only while that owner holds it (a check taken over is the taker's to finish). */
  finishCheck(checkId: number, status: CheckStatus, result: { summary?: CheckSummary; error?: string }, owner?: { host: string; pid: number }): void;
  check(id: number): CheckRecord | undefined;
  checks(monitorId: number, options?: { limit?: number }): CheckRecord[];
  latestCheck(monitorId: number): CheckRecord | undefined;
  /** Checks that never finished: running (maybe in a process that is gone) or interrupted. */
  unfinishedChecks(): CheckRecord[];
  addNotifications(checkId: number, deliveries: readonly Delivery[]): void;
  /** Records notifications about to be sent (the check's outbox), before the first is sent; returns their ids. */
  queueNotifications(checkId: number, items: ReadonlyArray<{ channelIndex: number; channel: { type: string }; message: OutgoingNotification }>, lease?: Lease): number[];
  /** A queued notification was delivered or failed: it leaves the outbox and is recorded, at once. False when it had already been settled. */
  settleNotification(outboxId: number, delivery: Delivery): boolean;
  /** Notifications of a check queued and not yet settled (their process died while sending them). */
  pendingNotifications(checkId: number): QueuedNotification[];
  /** Takes a check's queued notifications that nobody holds, whose holder's lease ended, or that `lease`'s owner holds already, for `lease`. */
  claimNotifications(checkId: number, lease: Lease): QueuedNotification[];
  /** Whether `lease`'s owner still holds a queued notification (moving its lease on): one taken over or settled is not to be sent. */
  holdsNotification(outboxId: number, lease: Lease): boolean;
  /** Whether any notification of a check was ever queued or recorded. */
  hasNotifications(checkId: number): boolean;
  notifications(checkId: number): NotificationRecord[];
  /** Notifications that failed, newest first, across monitors. */
  failedNotifications(limit?: number): NotificationRecord[];
  /** Removes the versions of a tag's pages last seen before `before`, except each page's latest. Returns how many were removed. */
  pruneSnapshots(tag: string, before: string): number;
}

/** A job's webhook message recorded and not yet delivered or given up (its server stopped while sending it). */
export interface PendingJobWebhook {
  id: number;
  jobId: string;
  /** The channel it goes on, without a signing secret (that is the server's, given again when sent). */
  channel: NotifyChannel;
  message: OutgoingNotification;
}

/** How one message to a job's webhook went. */
export interface JobWebhookDelivery {
  event: string;
  sent: boolean;
  status?: number;
  attempts: number;
  error?: string;
}

/** What serve's jobs send their request's webhook: recorded before it is sent, settled with its delivery. */
export interface JobWebhookTables {
  /** Records a message about to be sent by the replica `sender` (its serve token), which holds it while it is alive. */
  queue(jobId: string, channel: NotifyChannel, message: OutgoingNotification, sender?: string): number;
  settle(id: number, delivery: Delivery): void;
  /** Messages never settled, oldest first. */
  pending(): PendingJobWebhook[];
  /**
   * Claims for the replica `sender` the messages never settled whose sender is gone (no live
   * replica holds them), oldest first: each is claimed by one replica. On SQLite one server holds
   * the database: every unsettled message.
   */
  claimPending(sender: string): PendingJobWebhook[];
  /** How each settled message of a job went, in the order they were told. */
  deliveries(jobId: string): JobWebhookDelivery[];
  /** The channel a job's messages were recorded with (its latest), without a signing secret. */
  channel(jobId: string): NotifyChannel | undefined;
}

/** One page of a step: its URL, status code, credits, and the hash of its stored document. */
export interface StepEntry {
  url: string;
  hash: string;
  statusCode: number;
  credits: number;
}

export type ChangeCounts = Record<"new" | "same" | "changed" | "removed" | "hidden", number>;

export interface RunListRow {
  run: RunRecord;
  documents: number;
  failures: number;
  changes: ChangeCounts;
}

/** Who may see what: a team of `scrapeline serve` sees the runs of its own jobs and of its own monitors' checks only. */
export interface ReadScope {
  teamId?: number;
}

/** The reads of the web UI: paged, and indexed or bounded. */
export interface UiReads {
  /** Pipeline names with runs, sorted. */
  pipelines(scope?: ReadScope): string[];
  /** Runs newest first, `limit` of them with ids below `before`; `status` as reads report it (a dead 'running' run is interrupted). */
  runs(filter: { pipeline?: string; status?: string; before?: number; limit: number }, scope?: ReadScope): { rows: RunListRow[]; more: boolean };
  runVisible(runId: number, scope: ReadScope): boolean;
  runCounts(runId: number): { documents: number; failures: number; changes: ChangeCounts };
  /** A step's pages sorted by URL. */
  stepEntries(runId: number, stepId: string): StepEntry[];
  /** The change result of each page of a step that has one: the step's common result (base) and the pages that differ from it. */
  stepChanges(runId: number, stepId: string): { base: string | undefined; rows: Map<string, string> };
  /** A stored change record read back (its diff from its blob). */
  change(record: string): ChangeTrackingResult;
  /** One stored document of a run's step, with its change-tracking result. */
  document(runId: number, stepId: string, url: string): { document: Document; entry: StepEntry } | undefined;
  /** The steps' ids of a run, in the order they started. */
  stepIds(runId: number): string[];
  /** Every version of a URL's history, on every tag, by tag then version. */
  snapshots(url: string): SnapshotRecord[];
  snapshotMarkdown(snapshot: SnapshotRecord): string;
  failures(runId: number, offset: number, limit: number): { total: number; rows: Array<{ stepId: string; url: string; kind: string; error: string; failedAt: string }> };
  creditReasons(runId: number): Array<{ stepId: string; reason: string; credits: number }>;
  /** Credits and change counts of a pipeline's newest `limit` runs, oldest first (for charts). */
  series(pipeline: string, limit: number, scope?: ReadScope): Array<{ run: RunRecord; changes: ChangeCounts }>;
}

/** The tables a store hands out (each store implements them on its own database). */
export interface StoreTables {
  serveTables(): ServeTables;
  monitorTables(now?: () => Date): MonitorTables;
  jobWebhookTables(): JobWebhookTables;
  uiReads(): UiReads;
  fetchedPages(): FetchedPages;
}
