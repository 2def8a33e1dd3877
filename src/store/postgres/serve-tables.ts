// serve's teams, keys, jobs, usage and replicas on PostgreSQL (the thread's side; ../tables.ts says what each does).
import { DEFAULT_THREAT_POLICY, REQUEST_WINDOW_MS, type ServeTables } from "../tables.js";
import { toJob, toTeam } from "../table-rows.js";
import type { OnThread } from "./on-thread.js";
import { SERVE_REPLICAS } from "./replicas.js";
import { changes, row, rows, run, value, type Tx } from "./sql.js";

/** The lock a team's new job takes while the team's running jobs are counted (any fixed number: "jobs" in ASCII), with the team's id. */
const TEAM_JOBS_LOCK = 0x6a6f6273;

/** Credits of a run: its own and its pages' not yet compacted. */
const RUN_CREDITS = "r.credits_used + (SELECT COALESCE(SUM(d.credits_used), 0) FROM documents d WHERE d.run_id = r.id)";

const placeholders = (from: number, count: number) => Array.from({ length: count }, (_, i) => `$${from + i}`).join(", ");

export const SERVE_TABLES: OnThread<ServeTables> & { createJob(tx: Tx, job: Parameters<ServeTables["createJob"]>[0], within?: Parameters<ServeTables["createJob"]>[1], server?: string): Promise<boolean> } = {
  ...SERVE_REPLICAS,
  async createTeam(tx, team) {
    const found = await row(
      tx,
      "INSERT INTO serve_teams (name, plan_tokens, period_days, period_start, rate_limit, max_concurrent_jobs, threat_policy, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $4) RETURNING *",
      [team.name, team.planTokens, team.periodDays, tx.now, team.rateLimit, team.maxConcurrentJobs, JSON.stringify(DEFAULT_THREAT_POLICY)],
    );
    return toTeam(found!);
  },
  async updateTeam(tx, id, changed) {
    const columns: Record<string, unknown> = {};
    if (changed.planTokens !== undefined) columns.plan_tokens = changed.planTokens;
    if (changed.periodDays !== undefined) columns.period_days = changed.periodDays;
    if (changed.rateLimit !== undefined) columns.rate_limit = changed.rateLimit;
    if (changed.maxConcurrentJobs !== undefined) columns.max_concurrent_jobs = changed.maxConcurrentJobs;
    if (changed.threatPolicy !== undefined) columns.threat_policy = JSON.stringify(changed.threatPolicy);
    const names = Object.keys(columns);
    if (names.length === 0) return;
    await run(tx, `UPDATE serve_teams SET ${names.map((n, i) => `${n} = $${i + 1}`).join(", ")} WHERE id = $${names.length + 1}`, [...Object.values(columns), id]);
  },
  async teamByName(tx, name) {
    const found = await row(tx, "SELECT * FROM serve_teams WHERE name = $1", [name]);
    return found ? toTeam(found) : undefined;
  },
  async teams(tx) {
    return (await rows(tx, "SELECT * FROM serve_teams ORDER BY name")).map(toTeam);
  },
  async addKey(tx, teamId, prefix, keyHash) {
    return (await value<number>(tx, "INSERT INTO serve_keys (team_id, prefix, key_hash, created_at) VALUES ($1, $2, $3, $4) RETURNING id", [teamId, prefix, keyHash, tx.now]))!;
  },
  async teamByKeyHash(tx, keyHash) {
    const found = await row(tx, "SELECT t.* FROM serve_keys k JOIN serve_teams t ON t.id = k.team_id WHERE k.key_hash = $1 AND k.revoked_at IS NULL", [keyHash]);
    return found ? toTeam(found) : undefined;
  },
  async keys(tx) {
    const found = await rows(tx, "SELECT k.id, t.name AS team, k.prefix, k.created_at, k.revoked_at FROM serve_keys k JOIN serve_teams t ON t.id = k.team_id ORDER BY k.id");
    return found.map((r) => ({ id: r.id as number, team: r.team as string, prefix: r.prefix as string, createdAt: r.created_at as string, revokedAt: (r.revoked_at as string | null) ?? null }));
  },
  async revokeKeys(tx, ids) {
    return changes(tx, "UPDATE serve_keys SET revoked_at = $1 WHERE id = ANY($2::int[]) AND revoked_at IS NULL", [tx.now, ids]);
  },
  /** A limited job counts the team's running jobs under the team's lock, so replicas starting jobs at once take turns. */
  async createJob(tx, job, within, server?: string) {
    if (within) {
      await run(tx, "SELECT pg_advisory_xact_lock($1, $2)", [TEAM_JOBS_LOCK, job.teamId]);
      if ((await SERVE_TABLES.runningJobs(tx, job.teamId, within.kinds)).length >= within.max) return false;
    }
    await run(tx, "INSERT INTO serve_jobs (id, team_id, kind, status, url, total, created_at, server) VALUES ($1, $2, $3, 'scraping', $4, $5, $6, $7)", [job.id, job.teamId, job.kind, job.url, job.total, tx.now, server ?? null]);
    return true;
  },
  async runningJobs(tx, teamId, kinds) {
    return (await rows(tx, "SELECT * FROM serve_jobs WHERE team_id = $1 AND status = 'scraping' AND kind = ANY($2::text[]) ORDER BY seq", [teamId, kinds])).map(toJob);
  },
  async setJobRun(tx, id, runId) {
    await run(tx, "UPDATE serve_jobs SET run_id = $1 WHERE id = $2", [runId, id]);
  },
  /** A job cancelled (by any replica) stays cancelled when the replica running it finishes it. Its sealed header values are no longer needed. */
  async finishJob(tx, id, status, fields = {}) {
    await run(tx, "UPDATE serve_jobs SET status = CASE WHEN status = 'cancelled' THEN status ELSE $1 END, finished_at = COALESCE(finished_at, $2), total = COALESCE($3, total), error = COALESCE($4, error) WHERE id = $5", [status, tx.now, fields.total ?? null, fields.error ?? null, id]);
    await run(tx, "DELETE FROM serve_job_headers WHERE job_id = $1", [id]);
  },
  async setJobPages(tx, id, urls) {
    await run(tx, "UPDATE serve_jobs SET pages = $1 WHERE id = $2", [JSON.stringify(urls), id]);
  },
  async jobPages(tx, id) {
    const raw = await value<string | null>(tx, "SELECT pages FROM serve_jobs WHERE id = $1", [id]);
    return raw ? (JSON.parse(raw) as string[]) : undefined;
  },
  async job(tx, id) {
    const found = await row(tx, "SELECT * FROM serve_jobs WHERE id = $1", [id]);
    return found ? toJob(found) : undefined;
  },
  async jobsOf(tx, teamId, kind, limit, before) {
    const found = before
      ? await rows(tx, "SELECT * FROM serve_jobs WHERE team_id = $1 AND kind = $2 AND created_at < $3 ORDER BY created_at DESC, seq DESC LIMIT $4", [teamId, kind, before, limit])
      : await rows(tx, "SELECT * FROM serve_jobs WHERE team_id = $1 AND kind = $2 ORDER BY created_at DESC, seq DESC LIMIT $3", [teamId, kind, limit]);
    return found.map(toJob);
  },
  async lastSuccess(tx, teamId, since) {
    return (await value<string | null>(tx, "SELECT MAX(finished_at) FROM serve_jobs WHERE team_id = $1 AND status = 'completed' AND finished_at >= $2", [teamId, since])) ?? undefined;
  },
  /** The window's row is locked by the upsert, so replicas counting at once take turns. */
  async takeRequest(tx, teamId, limit, nowMs) {
    const found = (await row(
      tx,
      `INSERT INTO serve_request_windows (team_id, started, count) VALUES ($1, $2, 0)
       ON CONFLICT (team_id) DO UPDATE SET
         count = CASE WHEN $2 - serve_request_windows.started >= $3 THEN 0 ELSE serve_request_windows.count END,
         started = CASE WHEN $2 - serve_request_windows.started >= $3 THEN $2 ELSE serve_request_windows.started END
       RETURNING started, count`,
      [teamId, nowMs, REQUEST_WINDOW_MS],
    ))!;
    const window = { start: Number(found.started), count: found.count as number, taken: (found.count as number) < limit };
    if (window.taken) await run(tx, "UPDATE serve_request_windows SET count = count + 1 WHERE team_id = $1", [teamId]);
    return window;
  },
  async cancelledElsewhere(tx, id) {
    return (await value<string>(tx, "SELECT status FROM serve_jobs WHERE id = $1", [id])) === "cancelled";
  },
  async creditsUsedSince(tx, teamId, since, kinds, until) {
    const params: unknown[] = [teamId, since];
    let sql = `SELECT COALESCE(SUM(${RUN_CREDITS}), 0) FROM serve_jobs j JOIN runs r ON r.id = j.run_id WHERE j.team_id = $1 AND j.created_at >= $2`;
    if (until) sql += ` AND j.created_at < $${params.push(until)}`;
    if (kinds) sql += ` AND j.kind IN (${placeholders(params.length + 1, kinds.length)})`, params.push(...kinds);
    const jobs = Number(await value(tx, sql, params));
    return jobs + (kinds ? 0 : await SERVE_TABLES.monitorCreditsSince(tx, teamId, since, until));
  },
  async monitorCreditsSince(tx, teamId, since, until) {
    const params: unknown[] = [teamId, since];
    let sql = `SELECT COALESCE(SUM(${RUN_CREDITS}), 0) FROM monitor_checks c JOIN monitors m ON m.id = c.monitor_id JOIN runs r ON r.id = c.run_id WHERE m.team_id = $1 AND c.started_at >= $2`;
    if (until) sql += ` AND c.started_at < $${params.push(until)}`;
    return Number(await value(tx, sql, params));
  },
};
