// A throwaway PostgreSQL server for the benchmarks that need one: initdb in a temporary folder,
// listening on 127.0.0.1 on a free port (as the `postgres` user when run as root, which
// PostgreSQL refuses to run as). Debian's postgresql package, or SCRAPELINE_TEST_PG_BIN.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

function binaries() {
  if (process.env.SCRAPELINE_TEST_PG_BIN) return process.env.SCRAPELINE_TEST_PG_BIN;
  const debian = "/usr/lib/postgresql";
  const versions = existsSync(debian) ? readdirSync(debian).filter((v) => existsSync(join(debian, v, "bin", "initdb"))).sort((a, b) => Number(b) - Number(a)) : [];
  if (!versions[0]) throw new Error("PostgreSQL's initdb and postgres were not found: install them (apt-get install postgresql), set SCRAPELINE_TEST_PG_BIN, or give BENCH_POSTGRES_URL");
  return join(debian, versions[0], "bin");
}

function runAs() {
  if (process.getuid?.() !== 0) return { prefix: [] };
  const uid = Number(spawnSync("id", ["-u", "postgres"], { encoding: "utf8" }).stdout.trim());
  const gid = Number(spawnSync("id", ["-g", "postgres"], { encoding: "utf8" }).stdout.trim());
  return { prefix: ["setpriv", `--reuid=${uid}`, `--regid=${gid}`, "--clear-groups", "--reset-env"], uid, gid };
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer().once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

export async function startPostgres() {
  const bin = binaries();
  const as = runAs();
  const dir = mkdtempSync(join(tmpdir(), "scrapeline-bench-pg-"));
  if (as.uid !== undefined) chownSync(dir, as.uid, as.gid);
  const password = `pw-${randomBytes(9).toString("hex")}`;
  const pwfile = join(dir, "pwfile");
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (as.uid !== undefined) chownSync(pwfile, as.uid, as.gid);
  const data = join(dir, "data");
  const initdb = [...as.prefix, join(bin, "initdb"), "-D", data, "-U", "postgres", "--auth-local=trust", "--auth-host=scram-sha-256", `--pwfile=${pwfile}`, "-N", "-E", "UTF8", "--locale=C"];
  const init = spawnSync(initdb[0], initdb.slice(1), { encoding: "utf8" });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
  const port = await freePort();
  const command = [...as.prefix, join(bin, "postgres"), "-D", data, "-h", "127.0.0.1", "-p", String(port), "-k", dir, "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "max_connections=200"];
  const child = spawn(command[0], command.slice(1), { stdio: ["ignore", "pipe", "pipe"] });
  await new Promise((resolve, reject) => {
    let output = "";
    const onData = (chunk) => {
      output += chunk;
      if (output.includes("ready to accept connections")) resolve();
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => reject(new Error(`postgres exited (${code}):\n${output}`)));
  });
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGINT");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
