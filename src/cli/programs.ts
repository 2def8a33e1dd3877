import { spawn } from "node:child_process";
import { constants } from "node:os";
import { fileURLToPath } from "node:url";
import { EXIT } from "./exit-codes.js";
import type { Io } from "./output.js";

/**
 * Programs the CLI starts as child processes, found from this folder. Paths here are written from
 * `dist/cli/`, the one folder that holds both this module and the CLI's bundle, so they hold in both.
 */

/** The server program (src/server/main.ts): cli and server are separate frontends over app (DESIGN.md §2). */
export const SERVER_PROGRAM = fileURLToPath(new URL("../server/main.js", import.meta.url));

/** The UI program (src/ui/main.ts): the CLI reaches app only, never another frontend (DESIGN.md §2). */
export const UI_PROGRAM = fileURLToPath(new URL("../ui/main.js", import.meta.url));

/**
 * Runs a program with its settings as one JSON argument until it exits, passing SIGTERM and SIGINT
 * on for a graceful stop; resolves to its exit code (128 + the signal's number when a signal ended it).
 */
export async function runProgram(program: string, settings: unknown, io: Io, what: string): Promise<number> {
  const child = spawn(process.execPath, [program, JSON.stringify(settings)], { stdio: "inherit" });
  const forward = (signal: NodeJS.Signals) => () => void child.kill(signal);
  const onTerm = forward("SIGTERM");
  const onInt = forward("SIGINT");
  process.on("SIGTERM", onTerm);
  process.on("SIGINT", onInt);
  try {
    return await new Promise<number>((resolve) => {
      child.once("error", (error) => {
        io.stderr(`error: cannot start ${what}: ${error.message}\n`);
        resolve(EXIT.stepFailed);
      });
      child.once("exit", (status, signal) => resolve(status ?? (signal ? 128 + (constants.signals[signal] ?? 15) : EXIT.stepFailed)));
    });
  } finally {
    process.off("SIGTERM", onTerm);
    process.off("SIGINT", onInt);
  }
}
