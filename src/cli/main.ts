#!/usr/bin/env node
import module from "node:module";
import type { Interrupts } from "./cli.js";

// Where Node offers it (22.1 and later), compiled code of the CLI's modules is kept on disk between
// runs, so a command starts sooner; elsewhere this does nothing. The CLI loads after it.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
const { runCli } = await import("./cli.js");

/** First Ctrl-C: stop scheduling, let pages in flight finish. Second: abort them. Third: exit now. */
function processInterrupts(options: { termLikeInterrupt?: boolean } = {}): Interrupts {
  const stop = new AbortController();
  const abort = new AbortController();
  const callbacks: Array<() => void> = [];
  let count = 0;
  const stopScheduling = () => {
    count++;
    stop.abort();
    for (const callback of callbacks) callback();
  };
  const interrupt = () => {
    if (count === 0) stopScheduling();
    else if (count === 1) {
      count++;
      abort.abort();
    } else {
      process.exit(130);
    }
  };
  process.on("SIGINT", interrupt);
  process.on("SIGTERM", () => {
    // watch (a service under systemd) takes SIGTERM as Ctrl-C: pages in flight finish first.
    if (options.termLikeInterrupt) return interrupt();
    stop.abort();
    abort.abort();
  });
  return { stop: stop.signal, abort: abort.signal, onStop: (callback) => callbacks.push(callback), requestStop: () => void (count === 0 && stopScheduling()) };
}

const args = process.argv.slice(2);
// Only long-running commands take over Ctrl-C; the others keep the default (exit at once).
const longRunning = args[0] === "run" || args[0] === "watch";
let settled = false;
process.once("exit", () => {
  // Nothing was left to wait for, yet the command had not finished: never report that as success.
  if (settled) return;
  process.stderr.write("scrapeline: internal error: the command stopped before it finished\n");
  process.exitCode = 70;
});
runCli(args, undefined, longRunning ? processInterrupts({ termLikeInterrupt: args[0] === "watch" }) : undefined).then(
  (code) => {
    settled = true;
    process.exitCode = code;
  },
  (error: unknown) => {
    settled = true;
    process.stderr.write(`scrapeline: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 70;
  },
);
