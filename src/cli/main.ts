#!/usr/bin/env node
import module from "node:module";
import { setFlagsFromString } from "node:v8";
// Small and bundled into this file: it loads what it needs when a command runs.
import { quickCommand } from "./quick-commands.js";

// Where Node offers it (22.1 and later), compiled code of the CLI's modules is kept on disk between
// runs, so a command starts sooner; elsewhere this does nothing. The CLI loads after it.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

// undici reads HTTP responses with llhttp, compiled to WebAssembly as the first request goes out.
// V8's optimizing compile of it holds about 35 MB of memory for a moment, more than the rest of a
// short crawl; its baseline code reads headers as fast (a page's body is not parsed by it), so
// WebAssembly is compiled with the baseline compiler only: a 1-page crawl peaks at about 82 MB
// instead of 116. Set before anything is compiled, for every thread of the process.
setFlagsFromString("--liftoff-only");

const args = process.argv.slice(2);
let settled = false;
process.once("exit", () => {
  // Nothing was left to wait for, yet the command had not finished: never report that as success.
  if (settled) return;
  process.stderr.write("scrapeline: internal error: the command stopped before it finished\n");
  process.exitCode = 70;
});
// `--help`, `--version` and a plain `validate` are answered without loading the command-line parser.
const quick = quickCommand(args);
finish(quick ? quick() : runWithParser());

async function runWithParser(): Promise<number> {
  const { runCli, signalInterrupts } = await import("./cli.js");
  // Only long-running commands take over Ctrl-C; the others keep the default (exit at once).
  const longRunning = args[0] === "run" || args[0] === "watch" || args[0] === "worker";
  // SIGINT and SIGTERM count together: stop scheduling, abort, then exit at once (src/cli/interrupts.ts).
  const interrupts = longRunning
    ? signalInterrupts({
        say: (line) => void process.stderr.write(line),
        finishedBy: args[0] === "watch" ? "the checks cut short are resumed at the next start" : args[0] === "worker" ? "its claimed pages go to other processes when its lease ends" : "run --resume finishes the run",
        exit: (code) => {
          settled = true;
          process.exit(code);
        },
      })
    : undefined;
  return runCli(args, undefined, interrupts);
}

function finish(command: Promise<number>): void {
  command.then(
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
}
