/** One finding about an input file: where it is, how bad it is, and what to do about it. */
export type Severity = "error" | "warning";

export interface Diagnostic {
  file: string;
  /** 1-based line of the first character the finding is about. */
  line: number;
  /** 1-based column of that character. */
  column: number;
  /** How many characters on that line the caret underlines (at least 1). */
  length: number;
  severity: Severity;
  /** Stable kebab-case identifier, e.g. "unknown-key". */
  code: string;
  message: string;
  hint?: string;
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === "error");
}

/** Orders findings the way a reader walks a file: by file, then position, errors before warnings. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) =>
      a.file.localeCompare(b.file) ||
      a.line - b.line ||
      a.column - b.column ||
      (a.severity === b.severity ? 0 : a.severity === "error" ? -1 : 1) ||
      a.code.localeCompare(b.code),
  );
}
