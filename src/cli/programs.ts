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
 * The variable a program's settings (JSON) are given in: not an argument, which every user of the
 * machine can read in the process list, since they name the database, a PostgreSQL URL's password too.
 */
export const PROGRAM_SETTINGS_ENV = "SCRAPELINE_PROGRAM_SETTINGS";

/**
 * Runs a program with its settings as JSON in PROGRAM_SETTINGS_ENV until it exits, passing SIGTERM and SIGINT
 * on for a graceful stop; resolves to its exit code (128 + the signal's number when a signal ended it).
 */
export async function runProgram(program: string, settings: unknown, io: Io, what: string): Promise<number> {
  const child = spawn(process.execPath, [program], { stdio: "inherit", env: { ...process.env, [PROGRAM_SETTINGS_ENV]: JSON.stringify(settings) } });
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
