// Three `scrapeline watch` processes (the built CLI) on one PostgreSQL database, BENCH_MONITORS
// (500) pipeline files every minute against a loopback page, a loopback webhook receiver:
//  1. one slot: how long after the slot the last of its checks started (the check's started_at,
//     from the database), and duplicates (a monitor's check of that slot started more than once);
//  2. the next slot, kill -9: the page changes, its requests are held until every check of the
//     slot is in flight, then one watcher is killed and the page let go; the others take its
//     checks over. Checks lost (not completed when the others are done, or after BENCH_TIMEOUT_S)
//     and notifications told twice (the same monitor, event and page more than once).
// PostgreSQL: BENCH_POSTGRES_URL (postgres://user:password@host:port/postgres), where it makes a
// database of its own and drops it after, else a throwaway server started with the machine's initdb
// and postgres (Debian's postgresql package). Prints; asserts nothing. Build first.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { startPostgres } from "./postgres.mjs";

const CLI = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
const MONITORS = Number(process.env.BENCH_MONITORS ?? 500);
const WATCHERS = Number(process.env.BENCH_WATCHERS ?? 3);
const PARALLEL = Number(process.env.BENCH_PARALLEL ?? 200);
const LEASE_S = Number(process.env.BENCH_LEASE_S ?? 15);
const TIMEOUT_S = Number(process.env.BENCH_TIMEOUT_S ?? 300);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Waits for `test` (a query failing, as before the watchers made the tables, counts as false); false when the limit passed first. */
async function until(test, limitMs = TIMEOUT_S * 1000) {
  const end = Date.now() + limitMs;
  while (!(await Promise.resolve().then(test).catch(() => false))) {
    if (Date.now() > end) return false;
    await sleep(100);
  }
  return true;
}

function startWatch(dir, db) {
  const env = { ...process.env, SCRAPELINE_CHECK_LEASE: `${LEASE_S}s` };
  const child = spawn(process.execPath, [CLI, "watch", dir, "--db", db, "--max-parallel", String(PARALLEL), "--allow-private-network"], { stdio: ["ignore", "pipe", "inherit"], env });
  const lines = [];
  let rest = "";
  child.stdout.on("data", (d) => {
    const parts = (rest + d.toString()).split("\n");
    rest = parts.pop();
    lines.push(...parts);
  });
  let peak = 0;
  const sampler = setInterval(() => {
    try {
      peak = Math.max(peak, Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1] ?? 0) / 1024);
    } catch {}
  }, 200);
  const exited = new Promise((r) => child.once("close", r)).finally(() => clearInterval(sampler));
  return { child, lines, exited, peak: () => peak };
}

async function freshDatabase(server) {
  const name = `bench_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: server });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export async function run() {
  const started = process.env.BENCH_POSTGRES_URL ? undefined : await startPostgres();
  try {
    await measure(process.env.BENCH_POSTGRES_URL ?? started.url);
  } finally {
    await started?.stop();
  }
}

async function measure(server) {
  let version = "v1";
  let holding = false;
  const held = [];
  const site = createServer(async (req, res) => {
    if (holding) await new Promise((go) => held.push(go));
    const m = new URL(req.url, "http://x").searchParams.get("m");
    res.writeHead(200, { "content-type": "text/html" }).end(`<!doctype html><title>${m}</title><main><h1>Price of ${m}</h1><p>${version}</p></main>`);
  });
  const told = [];
  const hook = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      told.push(JSON.parse(body));
      res.writeHead(204).end();
    });
  });
  await new Promise((r) => site.listen(0, "127.0.0.1", r));
  await new Promise((r) => hook.listen(0, "127.0.0.1", r));
  const pageUrl = `http://127.0.0.1:${site.address().port}/page`;
  const hookUrl = `http://127.0.0.1:${hook.address().port}/hook`;
  const root = mkdtempSync(join(tmpdir(), "scrapeline-watch-cluster-"));
  const db = await freshDatabase(server);
  const client = new pg.Client({ connectionString: db.url });
  const watchers = [];
  try {
    for (let i = 0; i < MONITORS; i++) {
      writeFileSync(
        join(root, `m${String(i).padStart(3, "0")}.yaml`),
        `version: 1\nname: m${i}\nretry: { attempts: 1 }\nschedule: { every: 1m }\nnotify:\n  on: [changed]\n  channels:\n    - webhook: { url: "${hookUrl}", events: [monitor.check.completed, monitor.page] }\nsteps:\n  - id: page\n    scrape: { url: "${pageUrl}?m=${i}", formats: [markdown, { type: changeTracking }] }\n`,
      );
    }
    for (let i = 0; i < WATCHERS; i++) watchers.push(startWatch(root, db.url));
    await client.connect();
    const slotChecks = async (slot) => (await client.query("SELECT c.id, c.monitor_id, c.status, c.started_at, c.owner_pid FROM monitor_checks c WHERE c.slot = $1", [slot])).rows;
    const finished = (rows) => rows.filter((r) => !["running", "interrupted"].includes(r.status)).length;
    // Each file's first check (its baseline) runs at once.
    const t0 = Date.now();
    const baselinesDone = async () => {
      const { done, running } = (await client.query("SELECT count(DISTINCT monitor_id) FILTER (WHERE status IN ('completed', 'partial', 'failed')) AS done, count(*) FILTER (WHERE status IN ('running', 'interrupted')) AS running FROM monitor_checks")).rows[0];
      return Number(done) >= MONITORS && Number(running) === 0;
    };
    await until(baselinesDone, TIMEOUT_S * 1000 * 4);
    console.log(`${MONITORS} first checks (baselines) across ${WATCHERS} watchers, --max-parallel ${PARALLEL} each: all finished ${((Date.now() - t0) / 1000).toFixed(1)} s after start`);

    // 1. One slot.
    const slotOne = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 60_000);
    const one = slotOne.toISOString();
    await until(async () => (await slotChecks(one)).length >= MONITORS && finished(await slotChecks(one)) >= MONITORS, TIMEOUT_S * 1000 + 60_000);
    const rowsOne = await slotChecks(one);
    const spreadOne = Math.max(...rowsOne.map((r) => Date.parse(r.started_at) - slotOne.getTime())) / 1000;
    const startedLines = watchers.flatMap((w) => w.lines.filter((l) => l.includes("check.started") && l.includes(`slot=${one}`)));
    const perMonitor = new Map();
    for (const l of startedLines) perMonitor.set(/monitor=(\S+)/.exec(l)[1], (perMonitor.get(/monitor=(\S+)/.exec(l)[1]) ?? 0) + 1);
    const duplicates = [...perMonitor.values()].reduce((n, c) => n + c - 1, 0);
    const byWatcher = watchers.map((w) => w.lines.filter((l) => l.includes("check.started") && l.includes(`slot=${one}`)).length);
    console.log(`slot ${one}: ${rowsOne.length} checks; last started ${spreadOne.toFixed(2)} s after the slot; duplicates ${duplicates}; started per watcher ${byWatcher.join(" / ")}`);

    // 2. The next slot: the page changes, every check is held in flight, one watcher is killed.
    const slotTwo = new Date(slotOne.getTime() + 60_000);
    const two = slotTwo.toISOString();
    version = "v2";
    holding = true;
    const inFlight = Math.min(MONITORS, WATCHERS * PARALLEL);
    await until(() => held.length >= inFlight, TIMEOUT_S * 1000 + 60_000);
    const victim = watchers[0];
    const victimChecks = (await slotChecks(two)).filter((r) => r.owner_pid === victim.child.pid).map((r) => r.id);
    const rowsAtKill = await slotChecks(two);
    const killedAt = Date.now();
    victim.child.kill("SIGKILL");
    await victim.exited;
    holding = false;
    for (const go of held.splice(0)) go();
    const done = await until(async () => {
      const rows = await slotChecks(two);
      return rows.length >= MONITORS && finished(rows) >= MONITORS && told.length >= 2 * MONITORS;
    });
    const lastDone = (Date.now() - killedAt) / 1000;
    await sleep(2000); // anything told late, twice, would arrive here
    const rowsTwo = await slotChecks(two);
    const completed = rowsTwo.filter((r) => r.status === "completed").length;
    const lost = MONITORS - completed;
    const taken = rowsTwo.filter((r) => victimChecks.includes(r.id));
    const spreadTwo = Math.max(...rowsAtKill.map((r) => Date.parse(r.started_at) - slotTwo.getTime())) / 1000;
    const key = (t) => `${t.pipeline} ${t.event ?? "monitor.check.completed"} ${t.url ?? ""}`;
    const counts = new Map();
    for (const t of told) counts.set(key(t), (counts.get(key(t)) ?? 0) + 1);
    const twice = [...counts.values()].reduce((n, c) => n + c - 1, 0);
    const notTold = 2 * MONITORS - counts.size;
    console.log(
      `slot ${two}, kill -9 of one watcher with ${victimChecks.length} checks in flight (lease ${LEASE_S} s): ${rowsAtKill.length} started by the kill, the last ${spreadTwo.toFixed(2)} s after the slot; ` +
        `its checks finished by the others: ${taken.filter((r) => r.status === "completed" && r.owner_pid !== victim.child.pid).length} of ${victimChecks.length}; ` +
        `checks lost ${lost}${done ? "" : ` (gave up after ${TIMEOUT_S} s)`}; all done ${lastDone.toFixed(1)} s after the kill; told twice ${twice}; not told ${notTold}`,
    );
    console.log(`peak RSS per watcher: ${watchers.map((w) => `${w.peak().toFixed(0)} MB`).join(" / ")}`);
  } finally {
    for (const w of watchers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill("SIGTERM");
    await Promise.all(watchers.map((w) => w.exited));
    await client.end().catch(() => {});
    await db.drop().catch((e) => console.error(`could not drop the benchmark's database: ${e.message}`));
    site.closeAllConnections();
    site.close();
    hook.close();
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
