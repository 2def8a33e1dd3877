import type { Diagnostic, Severity } from "../core/index.js";
import { spanAt, type Path, type SourceDoc } from "./yaml/index.js";

export interface Finding {
  code: string;
  message: string;
  hint?: string | undefined;
  /** Underline the key rather than the value (unknown or misplaced keys). */
  at?: "key" | "value";
}

/** Collects findings about paths of one file, placing each at its line and column. */
export class Reporter {
  readonly diagnostics: Diagnostic[] = [];
  constructor(private readonly source: SourceDoc) {}

  error(path: Path, finding: Finding): void {
    this.add("error", path, finding);
  }

  warn(path: Path, finding: Finding): void {
    this.add("warning", path, finding);
  }

  /** Where a path's key is written (its value's place when it has no key), for positions kept past loading. */
  positionOf(path: Path): { line: number; column: number } {
    const span = spanAt(this.source, path, "key");
    return { line: span.line, column: span.column };
  }

  /** The 1-based line of a path, for hints like "first defined on line 4". */
  lineOf(path: Path): number {
    return spanAt(this.source, path, "value").line;
  }

  private add(severity: Severity, path: Path, finding: Finding): void {
    const d: Diagnostic = {
      file: this.source.file,
      ...spanAt(this.source, path, finding.at ?? "value"),
      severity,
      code: finding.code,
      message: finding.message,
    };
    if (finding.hint) d.hint = finding.hint;
    this.diagnostics.push(d);
  }
}
