// scrapeline serve under load: POST /v2/scrape of a cached page (maxAge large) at 32 concurrent
// connections, measured with autocannon in this process while the server runs as its own process
// (the program `scrapeline serve` runs). Prints requests/s, latency percentiles and errors, then
// the server's RSS before and after 10,000 scrape jobs, and the database size. Asserts nothing.
// Build first: it runs dist/ (`npm run build`).
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { dbSize } from "./db-size.mjs";

const CLI = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
// The program `scrapeline serve` runs; started directly so its RSS is the server's own.
const SERVER = fileURLToPath(new URL("../dist/server/main.js", import.meta.url));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const JOBS = Number(process.env.BENCH_JOBS ?? 10_000);

function page() {
  const paragraphs = Array.from({ length: 12 }, (_, p) => `<p>Paragraph ${p}: ${"lorem ipsum dolor sit amet ".repeat(10)}</p>`).join("");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Cached page</title></head><body><main><h1>Cached page</h1>${paragraphs}</main></body></html>`;
}

function rssMb(pid) {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN);
  return (kb / 1024).toFixed(1);
}

function cannon(options) {
  return new Promise((resolve, reject) => autocannon(options, (error, result) => (error ? reject(error) : resolve(result))));
}

export async function run() {
  const site = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page()));
  await new Promise((r) => site.listen(0, "127.0.0.1", r));
  const target = `http://127.0.0.1:${site.address().port}/page`;
  const dir = mkdtempSync(join(tmpdir(), "scrapeline-serve-bench-"));
  const db = join(dir, "serve.db");
  const created = spawnSync(process.execPath, [CLI, "keys", "create", "--team", "bench", "--db", db, "--rate-limit", "100000000", "--plan-tokens", "1000000000"], { encoding: "utf8" });
  if (created.status !== 0) throw new Error(created.stderr);
  const key = created.stdout.trim();
  const server = spawn(process.execPath, [SERVER, JSON.stringify({ port: 0, db, allowPrivateNetwork: true })], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  server.stderr.on("data", (c) => (stderr += c));
  const base = await new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const url = /listening on (\S+)/.exec(stderr)?.[1];
      if (url) resolve(url) || clearInterval(timer);
      if (server.exitCode !== null) reject(new Error(stderr)) || clearInterval(timer);
    }, 20);
  });
  const request = { url: `${base}/v2/scrape`, method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify({ url: target, formats: ["markdown"], maxAge: 86_400_000 }) };
  try {
    const warm = await fetch(request.url, request);
    if (warm.status !== 200) throw new Error(`warm-up scrape answered ${warm.status}: ${await warm.text()}`);
    const rssStart = rssMb(server.pid);
    await cannon({ ...request, connections: CONNECTIONS, duration: 2 });
    const result = await cannon({ ...request, connections: CONNECTIONS, duration: DURATION_S });
    console.log(`POST /v2/scrape, cached page, ${CONNECTIONS} connections, ${DURATION_S} s (Node ${process.versions.node}):`);
    console.log(`  requests/s  mean ${result.requests.average.toFixed(0)}, median ${result.requests.p50}`);
    console.log(`  latency     p50 ${result.latency.p50} ms, p90 ${result.latency.p90} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`);
    console.log(`  answers     ${result["2xx"]} 2xx, ${result.non2xx} other, ${result.errors} errors, ${result.timeouts} timeouts`);

    const jobs = await cannon({ ...request, connections: CONNECTIONS, amount: JOBS });
    const rssAfter = rssMb(server.pid);
    console.log(`RSS of the server: ${rssStart} MB after start-up and the first scrape; ${rssAfter} MB after ${jobs["2xx"]} more scrape jobs (${jobs.non2xx} non-2xx)`);
    console.log(`database: ${(dbSize(db) / 1e6).toFixed(1)} MB`);
  } finally {
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
    site.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
