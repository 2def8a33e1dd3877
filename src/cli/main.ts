#!/usr/bin/env node
import { runCli, type Interrupts } from "./cli.js";

/** First Ctrl-C: stop scheduling, let pages in flight finish. Second: abort them. Third: exit now. */
function processInterrupts(): Interrupts {
  const stop = new AbortController();
  const abort = new AbortController();
  const callbacks: Array<() => void> = [];
  let count = 0;
  process.on("SIGINT", () => {
    count++;
    if (count === 1) {
      stop.abort();
      for (const callback of callbacks) callback();
    } else if (count === 2) {
      abort.abort();
    } else {
      process.exit(130);
    }
  });
  process.on("SIGTERM", () => {
    stop.abort();
    abort.abort();
  });
  return { stop: stop.signal, abort: abort.signal, onStop: (callback) => callbacks.push(callback) };
}

const args = process.argv.slice(2);
// Only long-running commands take over Ctrl-C; the others keep the default (exit at once).
const longRunning = args[0] === "run";
runCli(args, undefined, longRunning ? processInterrupts() : undefined).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`scrapeline: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 70;
  },
);
