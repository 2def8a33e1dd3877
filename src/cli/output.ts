import { isScrapelineError, type Diagnostic } from "../core/index.js";
import { renderDiagnostics, summarize, type DiagnosticFormat } from "../app/light.js";
import { EXIT } from "./exit-codes.js";

export type Writer = (text: string) => void;

export interface Io {
  stdout: Writer;
  stderr: Writer;
  /** Whether stdout is a terminal a person reads. */
  isTTY: boolean;
  color: boolean;
  /** Calls back when stdout or stderr can no longer be written (a reader such as `head` went away). */
  onClosed?: (callback: () => void) => void;
  /** Whether stdout can no longer be written; known for sure once `flush` resolves. */
  stdoutClosed?: () => boolean;
  /** Resolves when what was written to stdout has reached the reader (or failed to). */
  flush?: () => Promise<void>;
}

/**
 * The process's streams. A closed pipe (EPIPE) is not an error of the command: what is written
 * after it is dropped, the command ends as it would have (as git does), and listeners learn of
 * it (a run stops as on Ctrl-C).
 */
export function processIo(): Io {
  const isTTY = Boolean(process.stdout.isTTY);
  const color = isTTY && !process.env.NO_COLOR && process.env.TERM !== "dumb";
  const closed = { stdout: false, stderr: false };
  const callbacks: Array<() => void> = [];
  const watch = (name: "stdout" | "stderr") =>
    process[name].on("error", () => {
      if (closed[name]) return;
      closed[name] = true;
      for (const callback of callbacks.splice(0)) callback();
    });
  watch("stdout");
  watch("stderr");
  return {
    stdout: (t) => void (closed.stdout || process.stdout.write(t)),
    stderr: (t) => void (closed.stderr || process.stderr.write(t)),
    isTTY,
    color,
    onClosed: (callback) => void callbacks.push(callback),
    stdoutClosed: () => closed.stdout,
    flush: () => new Promise<void>((resolve) => (closed.stdout ? resolve() : process.stdout.write("", () => resolve()))),
  };
}

/** long on a terminal, short otherwise, unless the user chose. */
export function chooseFormat(requested: string | undefined, io: Io): DiagnosticFormat {
  if (requested === "long" || requested === "short" || requested === "json") return requested;
  return io.isTTY ? "long" : "short";
}

export function printDiagnostics(io: Io, diagnostics: readonly Diagnostic[], format: DiagnosticFormat, sources: ReadonlyMap<string, string>, write: Writer = io.stdout): void {
  if (diagnostics.length === 0 && format !== "json") return;
  write(renderDiagnostics(diagnostics, format, { sources, color: io.color }));
}

/**
 * What a command's failure prints and its exit code: a ScrapelineError says its message (2 for
 * invalid input, else 1); anything else is not the command's to explain and is thrown on.
 */
export function exitForCommandError(error: unknown, io: Io): number {
  if (!isScrapelineError(error)) throw error;
  io.stderr(`error: ${error.message}\n`);
  return error.kind === "invalid-input" || error.kind === "unsupported" ? EXIT.invalid : EXIT.stepFailed;
}

export { summarize };
