// serve replicas sharing a PostgreSQL database: their rows, heartbeats, and the takeover of what a
// dead one left (the thread's side; ../tables.ts says what each does).
import { currentOwner, ownerAlive } from "../owner.js";
import type { ServeReplica, ServeTables } from "../tables.js";
import { toJob, type Row } from "../table-rows.js";
import type { OnThread } from "./on-thread.js";
import { changes, rows, run, value, type Tx } from "./sql.js";

/** The lock replicas take to look for dead ones and take their jobs over, one at a time (any fixed number: "srv1" in ASCII). */
const SERVERS_LOCK = 0x73727631;

type ReplicaTables = Pick<ServeTables, "claimServer" | "releaseServer" | "sharedByReplicas" | "heartbeat" | "deadServers" | "takeOverDead" | "holdBrowserSession" | "dropBrowserSession" | "browserSessionHolder">;

const toReplica = (r: Row): ServeReplica => ({
  token: r.token as string,
  pid: r.pid as number,
  host: r.host as string,
  startedAt: r.started_at as string,
  lastSeen: (r.last_seen as Date).toISOString(),
});

/** This replica's row, seen now (added again when another replica took it for dead and removed it). Whether it was there. */
async function beat(tx: Tx, token: string): Promise<boolean> {
  if ((await changes(tx, "UPDATE serve_servers SET last_seen = now() WHERE token = $1", [token])) > 0) return true;
  const self = currentOwner();
  await run(tx, "INSERT INTO serve_servers (token, pid, host, started, started_at, last_seen) VALUES ($1, $2, $3, $4, $5, now()) ON CONFLICT (token) DO UPDATE SET last_seen = now()", [token, self.pid, self.host, self.started, tx.now]);
  return false;
}

export const SERVE_REPLICAS: OnThread<ReplicaTables> = {
  /** Several replicas serve one database: each claim adds the replica's row and never refuses. */
  async claimServer(tx, token) {
    await beat(tx, token);
    return undefined;
  },
  async releaseServer(tx, token) {
    await run(tx, "DELETE FROM serve_servers WHERE token = $1", [token]);
  },
  async sharedByReplicas() {
    return true;
  },
  async heartbeat(tx, token) {
    return beat(tx, token);
  },
  /** The heartbeat is read on the database's clock; a replica of this host is also dead when its process is gone. */
  async deadServers(tx, token, leaseMs) {
    const found = await rows(tx, "SELECT token, pid, host, started, started_at, last_seen, last_seen < now() - $2 * interval '1 millisecond' AS stale FROM serve_servers WHERE token <> $1 ORDER BY started_at", [token, leaseMs]);
    return found.filter((r) => r.stale === true || ownerAlive({ host: r.host as string, pid: r.pid as number, started: (r.started as string | null) ?? null }) === false).map(toReplica);
  },
  /**
   * Under the replicas' lock: the dead replicas' rows go, and every unfinished job of a replica
   * without a row becomes this replica's. A replica that finds the lock taken takes nothing over
   * this time; after it is released, it finds them gone.
   */
  async takeOverDead(tx, token, leaseMs) {
    await beat(tx, token);
    // Another replica taking over now (or one stopped while it did, until the database ends its transaction): its turn.
    if ((await value<boolean>(tx, "SELECT pg_try_advisory_xact_lock($1)", [SERVERS_LOCK])) !== true) return [];
    const dead = await SERVE_REPLICAS.deadServers(tx, token, leaseMs);
    if (dead.length > 0) {
      await run(tx, "DELETE FROM serve_servers WHERE token = ANY($1::text[])", [dead.map((d) => d.token)]);
      // Their browser sessions died with them.
      await run(tx, "DELETE FROM serve_browser_sessions WHERE server = ANY($1::text[])", [dead.map((d) => d.token)]);
    }
    const taken = await rows(
      tx,
      `WITH left_over AS (SELECT id, server FROM serve_jobs WHERE status = 'scraping' AND (server IS NULL OR server NOT IN (SELECT token FROM serve_servers)) FOR UPDATE)
       UPDATE serve_jobs j SET server = $1 FROM left_over l WHERE j.id = l.id RETURNING j.*, l.server AS server_was`,
      [token],
    );
    const byToken = new Map(dead.map((d) => [d.token, d]));
    return taken.sort((a, b) => Number(a.seq) - Number(b.seq)).map((r) => ({ job: toJob(r), from: byToken.get(r.server_was as string) }));
  },
  async holdBrowserSession(tx, id, teamId, token) {
    await run(tx, "INSERT INTO serve_browser_sessions (id, team_id, server, opened_at) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO UPDATE SET team_id = excluded.team_id, server = excluded.server, opened_at = excluded.opened_at", [id, teamId, token, tx.now]);
  },
  async dropBrowserSession(tx, id) {
    await run(tx, "DELETE FROM serve_browser_sessions WHERE id = $1", [id]);
  },
  async browserSessionHolder(tx, id, teamId) {
    const found = await rows(tx, "SELECT s.token, s.pid, s.host, s.started_at, s.last_seen FROM serve_browser_sessions b JOIN serve_servers s ON s.token = b.server WHERE b.id = $1 AND b.team_id = $2", [id, teamId]);
    return found[0] ? toReplica(found[0]) : undefined;
  },
};
