import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import pg from "pg";

/** The server the suite shares (test/setup/postgres-server.ts): a URL of its `postgres` database, with the password. */
export const POSTGRES_URL_VARIABLE = "SCRAPELINE_TEST_POSTGRES_URL";

const INSTALL_HINT = "PostgreSQL's server binaries (initdb, postgres) were not found: install them (Debian: apt-get install postgresql) or set SCRAPELINE_TEST_PG_BIN to their folder";

/** The folder holding initdb and postgres: SCRAPELINE_TEST_PG_BIN, else Debian's newest /usr/lib/postgresql/N/bin, else pg_config's. */
export function postgresBinaries(): string | undefined {
  const given = process.env.SCRAPELINE_TEST_PG_BIN;
  if (given) return existsSync(join(given, "initdb")) ? given : undefined;
  const debian = "/usr/lib/postgresql";
  if (existsSync(debian)) {
    const versions = readdirSync(debian).filter((v) => existsSync(join(debian, v, "bin", "initdb"))).sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(debian, versions[0], "bin");
  }
  const config = spawnSync("pg_config", ["--bindir"], { encoding: "utf8" });
  const bindir = config.status === 0 ? config.stdout.trim() : "";
  return bindir && existsSync(join(bindir, "initdb")) ? bindir : undefined;
}

export interface PostgresServer {
  /** postgres://postgres:PASSWORD@127.0.0.1:PORT/postgres */
  url: string;
  password: string;
  stop(): Promise<void>;
}

/**
 * PostgreSQL refuses to run as root: as root, the server runs as the `postgres` system user (its
 * folder given to it), through setpriv, which execs it in place (so the pid is the server's and
 * signals reach it); as anyone else, as that user.
 */
function runAs(): { prefix: string[]; uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return { prefix: [] };
  const user = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
  const group = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" });
  if (user.status !== 0) throw new Error("running as root and there is no `postgres` user to run PostgreSQL as (create one: useradd --system postgres)");
  const uid = Number(user.stdout.trim());
  const gid = Number(group.stdout.trim());
  return { prefix: ["setpriv", `--reuid=${uid}`, `--regid=${gid}`, "--clear-groups", "--reset-env"], uid, gid };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Resolves when the server says it accepts connections; rejects with its output when it exits first. */
function ready(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      if (output.includes("database system is ready to accept connections")) {
        child.off("exit", onExit);
        resolve();
      }
    };
    const onExit = (code: number | null) => reject(new Error(`postgres exited (${code}) before it was ready:\n${output}`));
    child.stderr!.on("data", onData);
    child.stdout!.on("data", onData);
    child.once("exit", onExit);
  });
}

/**
 * A throwaway PostgreSQL: initdb in a temporary folder, listening on 127.0.0.1 on a free port, a
 * password required over TCP. Everything is removed on stop.
 */
export async function startPostgres(): Promise<PostgresServer> {
  const bin = postgresBinaries();
  if (!bin) throw new Error(INSTALL_HINT);
  const as = runAs();
  const dir = mkdtempSync(join(tmpdir(), "scrapeline-pg-"));
  if (as.uid !== undefined) chownSync(dir, as.uid, as.gid!);
  const password = `pw-${randomBytes(9).toString("hex")}`;
  const pwfile = join(dir, "pwfile");
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (as.uid !== undefined) chownSync(pwfile, as.uid, as.gid!);
  const data = join(dir, "data");
  const initdb = [...as.prefix, join(bin, "initdb"), "-D", data, "-U", "postgres", "--auth-local=trust", "--auth-host=scram-sha-256", `--pwfile=${pwfile}`, "-N", "-E", "UTF8", "--locale=C"];
  const init = spawnSync(initdb[0]!, initdb.slice(1), { encoding: "utf8" });
  if (init.status !== 0) throw new Error(`initdb failed (${userInfo().username}): ${init.stderr || init.stdout}`);
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const args = ["-D", data, "-h", "127.0.0.1", "-p", String(port), "-k", dir, "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=300"];
    const command = [...as.prefix, join(bin, "postgres"), ...args];
    const child = spawn(command[0]!, command.slice(1), { stdio: ["ignore", "pipe", "pipe"] });
    try {
      await ready(child);
    } catch (error) {
      // Another process took the port between the check and the bind: try another.
      if (attempt < 5 && /could not bind|Address already in use/i.test((error as Error).message)) continue;
      rmSync(dir, { recursive: true, force: true });
      throw error;
    }
    child.stdout!.resume();
    child.stderr!.resume();
    return {
      url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
      password,
      stop: async () => {
        if (child.exitCode === null) {
          const exited = new Promise((resolve) => child.once("exit", resolve));
          // SIGINT: fast shutdown.
          child.kill("SIGINT");
          await exited;
        }
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
}

/** Why the PostgreSQL tests skip, or undefined when the suite's server is there. */
export function postgresMissing(): string | undefined {
  if (process.env[POSTGRES_URL_VARIABLE]) return undefined;
  return INSTALL_HINT;
}

/** The suite's server URL (the `postgres` database). */
export function postgresServerUrl(): string {
  const url = process.env[POSTGRES_URL_VARIABLE];
  if (!url) throw new Error(postgresMissing());
  return url;
}

/** The suite server's password (what no output may show). */
export function postgresPassword(): string {
  return decodeURIComponent(new URL(postgresServerUrl()).password);
}

/** A new, empty database on the suite's server (`t_<random>`), as a URL with the password. */
export async function freshDatabase(): Promise<string> {
  const server = postgresServerUrl();
  const name = `t_${randomBytes(8).toString("hex")}`;
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}
