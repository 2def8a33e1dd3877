import { execFile, fork } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { constants, tmpdir } from "node:os";
import { join } from "node:path";
import { LIVE_PAGE_METHODS, type LivePage, type LivePageMethod } from "../../core/index.js";
import { CODE_CHILD_SOURCE } from "./code-child-source.js";

/** What an execute answers (the service's shape). */
export interface ExecuteResult {
  stdout: string;
  stderr: string;
  /** The value the code returned, as JSON (null when it returned nothing or failed). */
  result: unknown;
  exitCode: number;
  /** The code was stopped at its timeout. */
  killed: boolean;
}

export interface CodeLimits {
  /** Wall-clock limit; synchronous code is also stopped by the vm at this CPU time. */
  timeoutMs: number;
  /** The child's V8 heap limit; the whole process may use PROCESS_OVERHEAD_MB more (see `withMemoryLimit`). */
  memoryMb: number;
}

/** Room for what Node needs besides the old-generation heap (young generation, code, thread stacks, buffers; it starts at about 50 MB). */
export const PROCESS_OVERHEAD_MB = 128;

/** Node's permission model: `--permission` where this Node knows it by that name (22.13 and later), else its experimental name. */
const PERMISSION_FLAG = process.allowedNodeEnvironmentFlags.has("--permission") ? "--permission" : "--experimental-permission";

/** Output kept of each stream; the rest is cut with a note. */
const MAX_OUTPUT = 1024 * 1024;

/**
 * Runs `code` in a child process of its own (see code-child-source.ts), its `page` calls answered
 * by `page`. The child is killed at the timeout (`killed`), dies at its memory limit, and its
 * temporary directory is removed whatever happens; a page call it left waiting (a script of the
 * page's own that never ends) is stopped, so the page is of use to the next run.
 */
export async function runCode(page: LivePage, code: string, limits: CodeLimits): Promise<ExecuteResult> {
  const dir = mkdtempSync(join(tmpdir(), "scrapeline-code-"));
  const script = join(dir, "runner.cjs");
  writeFileSync(script, CODE_CHILD_SOURCE, { mode: 0o400 });
  const out = { stdout: "", stderr: "" };
  const append = (stream: "stdout" | "stderr", text: string) => {
    if (out[stream].length >= MAX_OUTPUT) return;
    out[stream] += text;
    if (out[stream].length >= MAX_OUTPUT) out[stream] = `${out[stream].slice(0, MAX_OUTPUT)}\n[output cut at ${MAX_OUTPUT} bytes]\n`;
  };
  const reservedMb = await startupReservationMb();
  const child = fork(script, [JSON.stringify(LIVE_PAGE_METHODS)], {
    cwd: dir,
    env: {},
    ...withMemoryLimit([PERMISSION_FLAG, `--allow-fs-read=${script}`, "--disallow-code-generation-from-strings", `--max-old-space-size=${limits.memoryMb}`, "--no-warnings"], limits.memoryMb + PROCESS_OVERHEAD_MB + reservedMb),
    stdio: ["ignore", "pipe", "pipe", "ipc"],
    serialization: "json",
  });
  child.stdout?.on("data", (chunk: Buffer) => append("stdout", chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => append("stderr", chunk.toString()));
  let killed = false;
  /** Page calls not answered yet. */
  let waiting = 0;
  let done: { ok: boolean; result: unknown; error?: string } | undefined;
  const timer = setTimeout(() => {
    killed = true;
    child.kill("SIGKILL");
  }, limits.timeoutMs);
  child.on("message", (message: ChildMessage) => {
    if (message.type === "log") append(message.stream === "stderr" ? "stderr" : "stdout", `${message.text}\n`);
    else if (message.type === "done") done = { ok: message.ok, result: message.result ?? null, ...(message.error ? { error: message.error } : {}) };
    else if (message.type === "call") {
      const method = message.method as LivePageMethod;
      const allowed = (LIVE_PAGE_METHODS as readonly string[]).includes(method) && Array.isArray(message.args);
      const answer = allowed ? page.call(method, message.args) : Promise.reject(new Error(`page.${String(message.method)} is not available`));
      waiting++;
      void answer.finally(() => waiting--).catch(() => undefined);
      answer.then(
        (value) => child.connected && child.send({ type: "reply", id: message.id, ok: true, value: value ?? null }),
        (error: unknown) => child.connected && child.send({ type: "reply", id: message.id, ok: false, error: error instanceof Error ? error.message : String(error) }),
      );
    }
  });
  try {
    child.send({ type: "run", code, timeoutMs: limits.timeoutMs });
    const [code_, signal] = (await new Promise((resolve) => child.once("exit", (c, s) => resolve([c, s])))) as [number | null, NodeJS.Signals | null];
    if (done?.error) append("stderr", `${done.error}\n`);
    // The vm stopped synchronous code at its CPU time: the same limit as the wall clock.
    if (done?.error && /Script execution timed out/.test(done.error)) killed = true;
    if (killed) append("stderr", `killed: the code ran past its timeout of ${limits.timeoutMs / 1000} s\n`);
    else if (!done) append("stderr", `the code's process ended without finishing${signal ? ` (${signal})` : ""}${OUT_OF_MEMORY.test(out.stderr) ? `: it ran out of its ${limits.memoryMb} MB of memory` : ""}\n`);
    else if (done.error && ALLOCATION_REFUSED.test(done.error)) append("stderr", `the code ended: it ran out of its ${limits.memoryMb} MB of memory\n`);
    // A call still waiting when the code ended waits on the page's script: stop it, so the session's next run finds the page of use.
    if (waiting > 0) await page.interrupt().catch(() => undefined);
    const exitCode = code_ ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 1);
    return { stdout: out.stdout, stderr: out.stderr, result: done?.ok ? done.result : null, exitCode, killed };
  } finally {
    clearTimeout(timer);
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  }
}

/** How the process dies of memory: V8's heap limit, or an allocation of Node's that the process limit refused. */
const OUT_OF_MEMORY = /out of memory|allocation failed|bad_alloc/i;
/** How the code fails when the process limit refuses its ArrayBuffer or WebAssembly memory (it may catch that, and go on within the limit). */
const ALLOCATION_REFUSED = /^RangeError: .*(allocation failed|could not allocate memory)/i;

const SHELL = "/bin/sh";

/**
 * The way to start Node with `nodeArgs` so that the whole process, not only its heap, stays under
 * `limitMb`: on Linux, through /bin/sh, which sets the data-segment limit (RLIMIT_DATA: every
 * private writable mapping, so ArrayBuffers and malloc too) before it becomes Node (a server
 * already held lower keeps its lower limit); elsewhere the heap limit alone holds.
 */
function withMemoryLimit(nodeArgs: string[], limitMb: number): { execPath: string; execArgv: string[] } {
  if (process.platform !== "linux" || !existsSync(SHELL)) return { execPath: process.execPath, execArgv: nodeArgs };
  return { execPath: SHELL, execArgv: ["-c", `ulimit -d ${limitMb * 1024} 2>/dev/null; exec "$@"`, "sh", process.execPath, ...nodeArgs] };
}

/** Steps of the start-up probe, in MB of data-segment limit. */
const PROBE_STEPS_MB = [64, 128, 256, 512, 640, 768, 1024, 1536, 2048];
let reservation: Promise<number> | undefined;

/**
 * What this Node reserves at start beyond what PROCESS_OVERHEAD_MB allows for, in MB: some versions
 * (26) reserve their code range as private writable address space, which the data-segment limit
 * counts although it is never touched, and fail to start under a lower limit. Found once, by
 * starting `node -e 0` under growing limits: the smallest that starts, less the overhead already
 * allowed (0 where Node 20 and 22 start within it).
 */
export function startupReservationMb(): Promise<number> {
  if (process.platform !== "linux" || !existsSync(SHELL)) return Promise.resolve(0);
  reservation ??= (async () => {
    for (const mb of PROBE_STEPS_MB) {
      const starts = await new Promise<boolean>((resolve) => {
        execFile(SHELL, ["-c", `ulimit -d ${mb * 1024} 2>/dev/null; exec "$@"`, "sh", process.execPath, "-e", "0"], { env: {}, timeout: 30_000 }, (error) => resolve(!error));
      });
      if (starts) return Math.max(0, mb - PROCESS_OVERHEAD_MB);
    }
    return 0; // never starts under a limit: the limit is not what stops it, so add nothing
  })();
  return reservation;
}

type ChildMessage =
  | { type: "log"; stream: string; text: string }
  | { type: "done"; ok: boolean; result?: unknown; error?: string }
  | { type: "call"; id: number; method: string; args: unknown[] };
