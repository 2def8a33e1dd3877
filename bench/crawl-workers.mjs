// One big crawl on several processes: a 5,000-page site on 127.0.0.1 crawled by a serve job on
// PostgreSQL, first by the serve replica alone, then with 1, 2 and 4 `scrapeline worker` processes
// beside it (BENCH_JOB=batch: one batch scrape of the site's 5,000 URLs instead of a crawl). The serve replica seeds the job and works on it too (as it does in production): the
// processes crawling are workers + 1. Prints pages/s of each, the scaling ratios, the CPU count and
// what bounds the figures. Asserts nothing; checks only that every run stored every page once.
//
// PostgreSQL: BENCH_POSTGRES_URL (a database the bench may fill), else a throwaway server started
// with the machine's initdb and postgres (Debian's postgresql package). Build first (`npm run build`).
import { spawn, spawnSync } from "node:child_process";
import { availableParallelism, cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { startSite } from "./crawl.mjs";
import { startPostgres } from "./postgres.mjs";

const CLI = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
const PAGES = Number(process.env.BENCH_PAGES ?? 5000);
const WORKERS = (process.env.BENCH_WORKERS ?? "0,1,2,4").split(",").map(Number);
// The site is one host: the job's pages of it in flight, all processes together (serve's default, 4, would bound any number of workers).
const PER_HOST = Number(process.env.BENCH_PER_HOST ?? 64);
const BATCH = process.env.BENCH_JOB === "batch";

function start(args) {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, SCRAPELINE_DB: "", SCRAPELINE_DATABASE_URL: "" } });
  let stderr = "";
  child.stderr.on("data", (c) => (stderr += c));
  const exited = new Promise((resolve) => child.once("close", resolve));
  return { child, err: () => stderr, exited };
}

/** Reads until `done` accepts the value, every `everyMs`: the job's status is polled as a client would, not so often that answering it slows the replica. */
async function until(read, done, everyMs = 20) {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** A database of its own on the server for each round, so no round finds another's pages in the cache. */
async function freshDatabase(serverUrl, name) {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.href;
}

async function round(serverUrl, site, workers) {
  const db = await freshDatabase(serverUrl, `crawl_workers_${workers}`);
  const created = spawnSync(process.execPath, [CLI, "keys", "create", "--team", "bench", "--db", db, "--rate-limit", "1000000", "--plan-tokens", "1000000000"], { encoding: "utf8" });
  if (created.status !== 0) throw new Error(created.stderr);
  const key = created.stdout.trim().split("\n").find((l) => l.startsWith("fc-"));
  const serve = start(["serve", "--port", "0", "--db", db, "--allow-private-network", "--per-host-concurrency", String(PER_HOST)]);
  const helpers = Array.from({ length: workers }, () => start(["worker", "--db", db, "--allow-private-network"]));
  try {
    const base = await until(() => /listening on (\S+)/.exec(serve.err())?.[1], (u) => u !== undefined || serve.child.exitCode !== null);
    if (!base) throw new Error(serve.err());
    await until(() => helpers.every((h) => h.err().includes("worker started")), Boolean);
    const call = async (method, path, body) => {
      const response = await fetch(new URL(path, base), { method, headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, ...(body ? { body: JSON.stringify(body) } : {}) });
      return response.json();
    };
    const started = performance.now();
    const job = BATCH ? await call("POST", "/v2/batch/scrape", { urls: site.paths.map((p) => `${site.url}${p}`) }) : await call("POST", "/v2/crawl", { url: `${site.url}/`, limit: PAGES, sitemap: "skip" });
    if (!job.id) throw new Error(JSON.stringify(job));
    // Polled every 500 ms: the time is up to half a second late, on runs of a minute or more.
    const status = await until(() => call("GET", `/v2/${BATCH ? "batch/scrape" : "crawl"}/${job.id}`), (s) => s.status !== "scraping", 500);
    const seconds = (performance.now() - started) / 1000;
    const counted = new pg.Client({ connectionString: db });
    await counted.connect();
    // The job's pages as every process stored them, in order (the step's documents are compacted once it ends).
    const { rows } = await counted.query("SELECT pages FROM serve_jobs WHERE id = $1", [job.id]);
    await counted.end();
    const urls = JSON.parse(rows[0]?.pages ?? "[]");
    const byWorkers = helpers.map((h) => [...h.err().matchAll(/(\d+) page\(s\) stored here/g)].reduce((n, m) => n + Number(m[1]), 0));
    return { workers, status: status.status, pages: urls.length, distinct: new Set(urls).size, seconds, byWorkers };
  } finally {
    for (const h of helpers) h.child.kill("SIGTERM");
    serve.child.kill("SIGTERM");
    await Promise.all([serve.exited, ...helpers.map((h) => h.exited)]);
  }
}

export async function run() {
  const server = process.env.BENCH_POSTGRES_URL ? { url: process.env.BENCH_POSTGRES_URL, stop: async () => {} } : await startPostgres();
  const site = await startSite(PAGES);
  try {
    console.log(`${PAGES}-page ${BATCH ? "batch scrape" : "crawl"} on 127.0.0.1, one PostgreSQL, a serve replica leading the job (it works on it too) + N workers, at most ${PER_HOST} pages of the host in flight across them (--per-host-concurrency)`);
    console.log(`CPUs: ${availableParallelism()} (${cpus()[0]?.model ?? "?"}); load average at start ${loadavg().map((l) => l.toFixed(1)).join(" ")}; Node ${process.versions.node}`);
    const results = [];
    for (const workers of WORKERS) {
      const result = await round(server.url, site, workers);
      results.push(result);
      const ok = result.status === "completed" && result.pages === PAGES && result.distinct === PAGES ? "" : `  (! status ${result.status}, ${result.pages} stored, ${result.distinct} distinct)`;
      console.log(`  serve + ${workers} worker(s): ${result.pages} pages in ${result.seconds.toFixed(1)} s = ${(result.pages / result.seconds).toFixed(0)} pages/s; stored by workers: ${result.byWorkers.join(", ") || "-"}${ok}`);
    }
    const rate = (w) => {
      const r = results.find((x) => x.workers === w);
      return r ? r.pages / r.seconds : undefined;
    };
    const one = rate(1);
    for (const w of [2, 4]) if (one && rate(w)) console.log(`  scaling, ${w} workers against 1: ${(rate(w) / one).toFixed(2)}× (goal ${w === 2 ? "1.7" : "3"}×)`);
    if (rate(0) && one) console.log(`  serve + 1 worker against serve alone: ${(one / rate(0)).toFixed(2)}×`);
    const cores = availableParallelism();
    const verdict =
      cores < 4
        ? `verdict: ${cores} CPU(s) for the site, PostgreSQL, the serve replica and every worker: the processes share the cores, so pages/s is bounded by the CPU, not by the number of workers; the goal of 3× at 4 workers needs at least 4 free cores (more with PostgreSQL on the same machine)`
        : `verdict: ${cores} CPUs; compare the ratios with the goal above`;
    console.log(`  ${verdict}`);
    console.log(`  load average at end ${loadavg().map((l) => l.toFixed(1)).join(" ")}`);
  } finally {
    await site.close();
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
