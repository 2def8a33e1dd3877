import type { Diagnostic } from "../core/index.js";
import { renderDiagnostics, summarize, type DiagnosticFormat } from "../app/index.js";

export type Writer = (text: string) => void;

export interface Io {
  stdout: Writer;
  stderr: Writer;
  /** Whether stdout is a terminal a person reads. */
  isTTY: boolean;
  color: boolean;
}

export function processIo(): Io {
  const isTTY = Boolean(process.stdout.isTTY);
  const color = isTTY && !process.env.NO_COLOR && process.env.TERM !== "dumb";
  return { stdout: (t) => void process.stdout.write(t), stderr: (t) => void process.stderr.write(t), isTTY, color };
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

export { summarize };
