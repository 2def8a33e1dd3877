// serve replicas and workers sharing a PostgreSQL database, as processes of the built CLI, and what
// their tests read them through: the HTTP API, the database, a webhook receiver.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { expect } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

export interface Started {
  child: ChildProcess;
  err: () => string;
  exited: Promise<number | null>;
}

/** The built CLI with `args`, its stderr kept; no database from the environment. */
export function startProcess(args: string[], env: NodeJS.ProcessEnv = {}): Started {
  const child = spawn(process.execPath, [join(ROOT, "dist/cli/main.js"), ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: "1", SCRAPELINE_DB: "", SCRAPELINE_DATABASE_URL: "", ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stdout!.resume();
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return { child, err: () => stderr, exited };
}

/**
 * How long `until` waits before it fails saying what it saw last: under the tests' own timeout
 * (120 s, vitest.config.ts), whose failure names neither the wait nor the value. It catches hangs only.
 */
const UNTIL_GIVES_UP_MS = 100_000;

/** Waits until `read` gives a value `done` accepts; fails naming the last value if none comes (a hang). */
export async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean): Promise<T> {
  const waiting = new Error("until: no accepted value");
  const since = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - since > UNTIL_GIVES_UP_MS) {
      waiting.message = `until: still waiting after ${UNTIL_GIVES_UP_MS / 1000} s; the last value read: ${valueShown(value)}`;
      throw waiting;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function valueShown(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value, (_key, item: unknown) => (typeof item === "bigint" ? String(item) : item)) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
}

/** Where a started serve listens, and the pid of its server program (serve runs it as a process of its own). */
export async function listening(serve: Started): Promise<{ base: string; pid: number }> {
  const match = await until(() => /listening on (\S+) \(pid (\d+)\)/.exec(serve.err()), (found) => found !== null || serve.child.exitCode !== null);
  if (!match) throw new Error(`serve did not start:\n${serve.err()}`);
  return { base: match[1]!, pid: Number(match[2]) };
}

/** A new key of team acme in `db`. */
export async function keyFor(db: string): Promise<string> {
  const keys = startProcess(["keys", "create", "--team", "acme", "--db", db]);
  let out = "";
  keys.child.stdout!.removeAllListeners("data");
  keys.child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()));
  await keys.exited;
  return out.trim().split("\n").find((line) => line.startsWith("fc-"))!;
}

export type Call = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: Record<string, any> }>;

export function client(base: string, key: string): Call {
  return async (method, path, body) => {
    const response = await fetch(new URL(path, base), { method, headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, ...(body ? { body: JSON.stringify(body) } : {}) });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
}

/** A replica serving `db` (started through `run`, so its test stops it), a new key of team acme, and a client calling it with that key. */
export async function firstReplica(db: string, run: (args: string[]) => Started): Promise<{ key: string; call: Call }> {
  const serve = run(["serve", "--port", "0", "--db", db, "--allow-private-network"]);
  const key = await keyFor(db);
  return { key, call: client((await listening(serve)).base, key) };
}

/** Every page of a finished crawl, read through the status pages' `next` links. */
export async function crawledPaths(call: Call, id: string): Promise<string[]> {
  const done = await until(() => call("GET", `/v2/crawl/${id}`), (r) => r.body.status !== "scraping");
  expect(done.body.status, JSON.stringify(done.body).slice(0, 500)).toBe("completed");
  const paths: string[] = [];
  let page: Record<string, any> = done.body;
  for (;;) {
    paths.push(...page.data.map((d: { metadata: { sourceURL: string } }) => new URL(d.metadata.sourceURL).pathname));
    if (!page.next) break;
    page = (await call("GET", new URL(page.next).pathname + new URL(page.next).search)).body;
  }
  return paths;
}

export async function query<T extends pg.QueryResultRow>(db: string, text: string, params: unknown[] = []): Promise<T[]> {
  const connection = new pg.Client({ connectionString: db });
  await connection.connect();
  try {
    return (await connection.query<T>(text, params)).rows;
  } finally {
    await connection.end();
  }
}

/** Pages stored by the worker whose stderr this is, from its "left crawl" and "left batch" lines. */
export const storedBy = (stderr: string) => [...stderr.matchAll(/(\d+) page\(s\) stored here/g)].reduce((n, m) => n + Number(m[1]), 0);

/** A webhook receiver on 127.0.0.1 keeping the messages it got, in order. */
export async function receiver(): Promise<{ url: string; received: Array<Record<string, any>>; close: () => Promise<void> }> {
  const received: Array<Record<string, any>> = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      received.push(JSON.parse(body) as Record<string, any>);
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
