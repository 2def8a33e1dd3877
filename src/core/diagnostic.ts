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
  /** The finding as a validation issue in the service's shape (schema findings have one). */
  issue?: ValidationIssue;
}

/**
 * A validation problem as the service reports it in a 400's `details` (zod's issue objects):
 * `code` (invalid_type, unrecognized_keys, invalid_enum_value, too_small, too_big,
 * invalid_string, custom, …), `path` from the body's top, `message`, and the fields of its code.
 */
export interface ValidationIssue {
  code: string;
  path: (string | number)[];
  message: string;
  expected?: string;
  received?: string;
  keys?: string[];
  options?: unknown[];
  minimum?: number;
  maximum?: number;
  type?: string;
  inclusive?: boolean;
  validation?: string;
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
