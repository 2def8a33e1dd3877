import type Database from "better-sqlite3";
import { currentOwner, ownerAlive } from "../owner.js";
import type { ApiKeyRecord, ServeJob, ServeJobKind, ServeJobStatus, Team } from "../../core/index.js";
import { DEFAULT_THREAT_POLICY, REQUEST_WINDOW_MS, type NewTeam, type RequestWindow, type ServeOwner, type ServeReplica, type ServeTables, type TakenOverJob } from "../tables.js";
import { toJob, toTeam, type Row } from "../table-rows.js";

/**
 * The tables of `scrapeline serve` (migration 3, and serve_owner later): teams, their API keys
 * (stored as sha256 hashes), their jobs, and the server process that owns them. Works on the
 * store's connection, so job rows and the runs they point to share one database.
 */
export class SqliteServeTables implements ServeTables {
  private readonly windows = new Map<number, { start: number; count: number }>();

  constructor(
    private readonly db: Database.Database,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private stamp(): string {
    return this.now().toISOString();
  }

  createTeam(team: NewTeam): Team {
    const at = this.stamp();
    this.db
      .prepare("INSERT INTO serve_teams (name, plan_tokens, period_days, period_start, rate_limit, max_concurrent_jobs, threat_policy, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
      .run(team.name, team.planTokens, team.periodDays, at, team.rateLimit, team.maxConcurrentJobs, JSON.stringify(DEFAULT_THREAT_POLICY), at);
    return this.teamByName(team.name)!;
  }

  /** Changes the given settings of a team; the others stay. */
  updateTeam(id: number, changes: Partial<Pick<Team, "planTokens" | "periodDays" | "rateLimit" | "maxConcurrentJobs" | "threatPolicy">>): void {
    const columns: Record<string, unknown> = {};
    if (changes.planTokens !== undefined) columns.plan_tokens = changes.planTokens;
    if (changes.periodDays !== undefined) columns.period_days = changes.periodDays;
    if (changes.rateLimit !== undefined) columns.rate_limit = changes.rateLimit;
    if (changes.maxConcurrentJobs !== undefined) columns.max_concurrent_jobs = changes.maxConcurrentJobs;
    if (changes.threatPolicy !== undefined) columns.threat_policy = JSON.stringify(changes.threatPolicy);
    const names = Object.keys(columns);
    if (names.length === 0) return;
    this.db.prepare(`UPDATE serve_teams SET ${names.map((n) => `${n} = ?`).join(", ")} WHERE id = ?`).run(...Object.values(columns), id);
  }

  teamByName(name: string): Team | undefined {
    const row = this.db.prepare("SELECT * FROM serve_teams WHERE name = ?").get(name) as Row | undefined;
    return row ? toTeam(row) : undefined;
  }

  teams(): Team[] {
    return (this.db.prepare("SELECT * FROM serve_teams ORDER BY name").all() as Row[]).map(toTeam);
  }

  addKey(teamId: number, prefix: string, keyHash: string): number {
    return Number(this.db.prepare("INSERT INTO serve_keys (team_id, prefix, key_hash, created_at) VALUES (?, ?, ?, ?)").run(teamId, prefix, keyHash, this.stamp()).lastInsertRowid);
  }

  /** The team a key (by its hash) belongs to, when the key exists and is not revoked. */
  teamByKeyHash(keyHash: string): Team | undefined {
    const row = this.db.prepare("SELECT t.* FROM serve_keys k JOIN serve_teams t ON t.id = k.team_id WHERE k.key_hash = ? AND k.revoked_at IS NULL").get(keyHash) as Row | undefined;
    return row ? toTeam(row) : undefined;
  }

  keys(): ApiKeyRecord[] {
    const rows = this.db.prepare("SELECT k.id, t.name AS team, k.prefix, k.created_at, k.revoked_at FROM serve_keys k JOIN serve_teams t ON t.id = k.team_id ORDER BY k.id").all() as Row[];
    return rows.map((r) => ({ id: r.id as number, team: r.team as string, prefix: r.prefix as string, createdAt: r.created_at as string, revokedAt: (r.revoked_at as string | null) ?? null }));
  }

  /** Revokes the keys matching an id or a prefix; returns how many were revoked. */
  revokeKeys(ids: number[]): number {
    const revoke = this.db.prepare("UPDATE serve_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL");
    return this.db.transaction(() => ids.reduce((n, id) => n + revoke.run(this.stamp(), id).changes, 0))();
  }

  createJob(job: { id: string; teamId: number; kind: ServeJobKind; url: string | null; total: number | null }, within?: { kinds: readonly ServeJobKind[]; max: number }): boolean {
    return this.db.transaction(() => {
      if (within && this.runningJobs(job.teamId, within.kinds).length >= within.max) return false;
      this.db.prepare("INSERT INTO serve_jobs (id, team_id, kind, status, url, total, created_at) VALUES (?, ?, ?, 'scraping', ?, ?, ?)").run(job.id, job.teamId, job.kind, job.url, job.total, this.stamp());
      return true;
    })();
  }

  runningJobs(teamId: number, kinds: readonly ServeJobKind[]): ServeJob[] {
    if (kinds.length === 0) return [];
    const rows = this.db.prepare(`SELECT * FROM serve_jobs WHERE team_id = ? AND status = 'scraping' AND kind IN (${kinds.map(() => "?").join(", ")}) ORDER BY created_at, rowid`).all(teamId, ...kinds) as Row[];
    return rows.map(toJob);
  }

  setJobRun(id: string, runId: number): void {
    this.db.prepare("UPDATE serve_jobs SET run_id = ? WHERE id = ?").run(runId, id);
  }

  finishJob(id: string, status: ServeJobStatus, fields: { total?: number; error?: string } = {}): void {
    this.db.prepare("UPDATE serve_jobs SET status = ?, finished_at = COALESCE(finished_at, ?), total = COALESCE(?, total), error = COALESCE(?, error) WHERE id = ?").run(status, this.stamp(), fields.total ?? null, fields.error ?? null, id);
  }

  /** The URLs of a finished job's pages, in the order they were stored. */
  setJobPages(id: string, urls: readonly string[]): void {
    this.db.prepare("UPDATE serve_jobs SET pages = ? WHERE id = ?").run(JSON.stringify(urls), id);
  }

  jobPages(id: string): string[] | undefined {
    const raw = this.db.prepare("SELECT pages FROM serve_jobs WHERE id = ?").pluck().get(id) as string | null | undefined;
    return raw ? (JSON.parse(raw) as string[]) : undefined;
  }

  job(id: string): ServeJob | undefined {
    const row = this.db.prepare("SELECT * FROM serve_jobs WHERE id = ?").get(id) as Row | undefined;
    return row ? toJob(row) : undefined;
  }

  /** A team's jobs of one kind, newest first, created before `before` (an ISO time) when given; at most `limit`. */
  jobsOf(teamId: number, kind: ServeJobKind, limit: number, before?: string): ServeJob[] {
    const rows = this.db
      .prepare(`SELECT * FROM serve_jobs WHERE team_id = ? AND kind = ?${before ? " AND created_at < ?" : ""} ORDER BY created_at DESC, rowid DESC LIMIT ?`)
      .all(teamId, kind, ...(before ? [before] : []), limit) as Row[];
    return rows.map(toJob);
  }

  /** When the team's latest job that succeeded finished, if it finished at or after `since`. */
  lastSuccess(teamId: number, since: string): string | undefined {
    return (this.db.prepare("SELECT MAX(finished_at) FROM serve_jobs WHERE team_id = ? AND status = 'completed' AND finished_at >= ?").pluck().get(teamId, since) as string | null) ?? undefined;
  }

  /**
   * Makes `owner` the server of this database, in one transaction with the cleanup of what a
   * stopped owner left (its unfinished jobs end cancelled). Returns the live owner instead, and
   * changes nothing, when another server holds the database: one on another host, or a process
   * `isAlive` says still runs (this process included, for another server it started).
   */
  claimServer(token: string): ServeOwner | undefined {
    const self = currentOwner();
    const claim = claimOf(token);
    return this.db
      .transaction((): ServeOwner | undefined => {
        const row = this.db.prepare("SELECT pid, host, token, started_at FROM serve_owner WHERE id = 1").get() as Row | undefined;
        if (row && row.token !== claim) {
          const held = String(row.token);
          const started = held.includes("|") ? held.slice(0, held.indexOf("|")) || null : null;
          if (ownerAlive({ host: row.host as string, pid: row.pid as number, started }) !== false) {
            return { pid: row.pid as number, host: row.host as string, startedAt: row.started_at as string };
          }
        }
        this.db.prepare("INSERT OR REPLACE INTO serve_owner (id, pid, host, token, started_at) VALUES (1, ?, ?, ?, ?)").run(self.pid, self.host, claim, this.stamp());
        this.cancelUnfinishedJobs();
        return undefined;
      })
      .immediate();
  }

  /** One server holds a SQLite database: it counts requests in memory. */
  takeRequest(teamId: number, limit: number, nowMs: number): RequestWindow {
    let window = this.windows.get(teamId);
    if (!window || nowMs - window.start >= REQUEST_WINDOW_MS) {
      window = { start: nowMs, count: 0 };
      this.windows.set(teamId, window);
    }
    const found = { start: window.start, count: window.count, taken: window.count < limit };
    if (found.taken) window.count++;
    return found;
  }

  /** One server holds a SQLite database: a job is cancelled only through it. */
  cancelledElsewhere(_id: string): boolean {
    return false;
  }

  /** Gives the database up, when `token` still owns it. */
  releaseServer(token: string): void {
    this.db.prepare("DELETE FROM serve_owner WHERE id = 1 AND token = ?").run(claimOf(token));
  }

  /** One server holds a SQLite database: no replicas, no heartbeats. */
  sharedByReplicas(): boolean {
    return false;
  }

  heartbeat(_token: string): boolean {
    return true;
  }

  deadServers(_token: string, _leaseMs: number): ServeReplica[] {
    return [];
  }

  /** A SQLite database's one server cancels what a stopped server left when it claims the database. */
  takeOverDead(_token: string, _leaseMs: number): TakenOverJob[] {
    return [];
  }

  /** One server holds a SQLite database and its browser sessions: nothing to record. */
  holdBrowserSession(_id: string, _teamId: number, _token: string): void {}

  dropBrowserSession(_id: string): void {}

  browserSessionHolder(_id: string, _teamId: number): ServeReplica | undefined {
    return undefined;
  }

  /** Jobs a stopped server left running: marked cancelled (their stored pages stay readable). */
  cancelUnfinishedJobs(): number {
    return this.db.prepare("UPDATE serve_jobs SET status = 'cancelled', finished_at = ?, error = 'the server stopped before the job finished' WHERE status = 'scraping'").run(this.stamp()).changes;
  }

  /** Credits the team's jobs (of the given kinds; all when none are given) started at or after `since` (and before `until`, when given) have used so far (finished or not). */
  creditsUsedSince(teamId: number, since: string, kinds?: readonly ServeJobKind[], until?: string): number {
    const only = kinds ? ` AND j.kind IN (${kinds.map(() => "?").join(", ")})` : "";
    const value = this.db.prepare(`SELECT COALESCE(SUM(r.credits_used + (SELECT COALESCE(SUM(d.credits_used), 0) FROM documents d WHERE d.run_id = r.id)), 0)
       FROM serve_jobs j JOIN runs r ON r.id = j.run_id WHERE j.team_id = ? AND j.created_at >= ?${until ? " AND j.created_at < ?" : ""}${only}`).pluck().get(teamId, since, ...(until ? [until] : []), ...(kinds ?? []));
    return Number(value) + (kinds ? 0 : this.monitorCreditsSince(teamId, since, until));
  }

  /** Credits the runs of the team's monitor checks (/v2/monitor) started at or after `since` (and before `until`) have used, deleted monitors' too. */
  monitorCreditsSince(teamId: number, since: string, until?: string): number {
    const value = this.db.prepare(`SELECT COALESCE(SUM(r.credits_used + (SELECT COALESCE(SUM(d.credits_used), 0) FROM documents d WHERE d.run_id = r.id)), 0)
       FROM monitor_checks c JOIN monitors m ON m.id = c.monitor_id JOIN runs r ON r.id = c.run_id WHERE m.team_id = ? AND c.started_at >= ?${until ? " AND c.started_at < ?" : ""}`).pluck().get(teamId, since, ...(until ? [until] : []));
    return Number(value);
  }
}

/**
 * A server's claim as stored: its process's start token, then the server's own token, so that a
 * pid the system gave to another process since is not taken for the owner (store/owner.ts).
 */
function claimOf(token: string): string {
  return `${currentOwner().started ?? ""}|${token}`;
}
