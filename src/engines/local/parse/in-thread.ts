import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { ErrorKind, ParseInput, ParseOptions } from "../../../core/index.js";
import { ScrapelineError } from "../../../core/index.js";
import type { ParsedFile } from "./converted.js";
import { DEFAULT_PARSE_LIMITS, type ParseLimits } from "./limits.js";

/** What a conversion thread is sent: one file. */
export interface ThreadJob {
  file: ParseInput;
  options: ParseOptions;
  limits: ParseLimits;
}

/** What it answers: the parsed file, or why it failed. */
export interface ThreadAnswer {
  parsed?: ParsedFile;
  error?: { kind: ErrorKind; message: string };
}

/** Conversions at once in this process (each may use its heap limit): the cores, from 2 to 4. */
export const MAX_CONVERSIONS = Math.min(4, Math.max(2, availableParallelism()));
/** Files a thread converts before it is replaced (what a converter's caches keep is let go). */
const USES_PER_THREAD = 50;
/** An idle thread ends after this long without work. */
const IDLE_MS = 10_000;
/** The thread's young generation; the rest of the heap limit is its old generation. */
const YOUNG_MB = 32;

interface Thread {
  worker: Worker;
  uses: number;
  heapMb: number;
  idle?: NodeJS.Timeout;
}

const idle: Thread[] = [];
const waiting: Array<() => void> = [];
let running = 0;

/** Conversions running now (for diagnostics and tests). */
export function runningConversions(): number {
  return running;
}

/**
 * Converts one file in a thread of its own, with `limits.maxHeapMb` of JavaScript heap: a file
 * that needs more ends that thread (ERR_WORKER_OUT_OF_MEMORY) and fails as too large, naming the
 * limit, while the process and its other work go on. At most MAX_CONVERSIONS run at once; the
 * others wait their turn. An abort (the file's deadline, a cancelled run) ends the thread at once,
 * even inside a reader that runs synchronously.
 */
export async function parseInThread(file: ParseInput, options: ParseOptions, signal?: AbortSignal, limits: ParseLimits = { ...DEFAULT_PARSE_LIMITS, maxBytes: options.maxFileSize }): Promise<ParsedFile> {
  await turn(signal);
  running++;
  try {
    return await convert(take(limits.maxHeapMb), { file, options, limits }, signal);
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/** Waits until fewer than MAX_CONVERSIONS run (or the signal aborts). */
function turn(signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.reject(cancelled());
  if (running < MAX_CONVERSIONS) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const go = () => {
      signal?.removeEventListener("abort", stop);
      resolve();
    };
    const stop = () => {
      const at = waiting.indexOf(go);
      if (at >= 0) waiting.splice(at, 1);
      reject(cancelled());
    };
    signal?.addEventListener("abort", stop, { once: true });
    waiting.push(go);
  });
}

function convert(thread: Thread, job: ThreadJob, signal: AbortSignal | undefined): Promise<ParsedFile> {
  const { worker } = thread;
  const name = job.file.name;
  return new Promise<ParsedFile>((resolve, reject) => {
    const done = (settle: () => void, keep: boolean) => {
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
      signal?.removeEventListener("abort", onAbort);
      if (keep) release(thread);
      else void worker.terminate();
      settle();
    };
    const onMessage = (answer: ThreadAnswer) => {
      if (answer.parsed) done(() => resolve(answer.parsed!), true);
      else done(() => reject(new ScrapelineError(answer.error?.kind ?? "internal", answer.error?.message ?? `${name} could not be converted`)), true);
    };
    const onError = (error: Error & { code?: string }) => {
      if (error.code === "ERR_WORKER_OUT_OF_MEMORY") {
        done(() => reject(new ScrapelineError("too-large", `${name} needs more than ${job.limits.maxHeapMb} MB of memory to convert (the limit of one parsed file): refused`)), false);
      } else done(() => reject(new ScrapelineError("internal", `the conversion of ${name} failed (${error.message})`)), false);
    };
    const onExit = (code: number) => done(() => reject(new ScrapelineError("internal", `the conversion of ${name} stopped (thread exit code ${code})`)), false);
    const onAbort = () => done(() => reject(cancelled()), false);
    if (signal?.aborted) return onAbort();
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.on("exit", onExit);
    signal?.addEventListener("abort", onAbort, { once: true });
    worker.ref();
    thread.uses++;
    worker.postMessage(job);
  });
}

/** An idle thread with the same heap limit, else a new one. */
function take(heapMb: number): Thread {
  const at = idle.findIndex((t) => t.heapMb === heapMb);
  if (at >= 0) {
    const [thread] = idle.splice(at, 1);
    clearTimeout(thread!.idle);
    return thread!;
  }
  // Beside this module in src/ and dist/; in the CLI's bundle (dist/cli/) the build rewrites the
  // path to lead to dist/engines/local/parse/ from there.
  const worker = new Worker(new URL("./parse-thread.js", import.meta.url), {
    resourceLimits: { maxOldGenerationSizeMb: Math.max(16, heapMb - YOUNG_MB), maxYoungGenerationSizeMb: Math.min(YOUNG_MB, heapMb / 2) },
  });
  const thread: Thread = { worker, uses: 0, heapMb };
  // Errors after a conversion settled (none are expected) must not be unhandled; a thread that
  // ends while idle is never handed a file.
  worker.on("error", () => {});
  worker.on("exit", () => {
    const at = idle.indexOf(thread);
    if (at >= 0) idle.splice(at, 1);
    clearTimeout(thread.idle);
  });
  return thread;
}

/** A thread done with a file: kept for the next one (not keeping the process alive) while it is young. */
function release(thread: Thread): void {
  if (thread.uses >= USES_PER_THREAD || idle.length >= MAX_CONVERSIONS) {
    void thread.worker.terminate();
    return;
  }
  thread.worker.unref();
  thread.idle = setTimeout(() => {
    idle.splice(idle.indexOf(thread), 1);
    void thread.worker.terminate();
  }, IDLE_MS);
  thread.idle.unref();
  idle.push(thread);
}

function cancelled(): ScrapelineError {
  return new ScrapelineError("cancelled", "the conversion was cancelled");
}
