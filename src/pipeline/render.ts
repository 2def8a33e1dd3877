import type { Diagnostic } from "../core/index.js";

export type DiagnosticFormat = "long" | "short" | "json";

export interface RenderOptions {
  /** Source text of each file, for the quoted line in the long format. */
  sources?: ReadonlyMap<string, string>;
  color?: boolean;
}

const MAX_SHOWN = 120;

export function renderDiagnostics(diagnostics: readonly Diagnostic[], format: DiagnosticFormat, options: RenderOptions = {}): string {
  if (format === "json") return `${JSON.stringify(diagnostics.map(toJson), null, 2)}\n`;
  if (format === "short") return diagnostics.map(renderShort).map((l) => `${l}\n`).join("");
  return diagnostics.map((d) => renderLong(d, options)).join("\n");
}

function toJson(d: Diagnostic) {
  return { file: d.file, line: d.line, column: d.column, severity: d.severity, code: d.code, message: d.message, hint: d.hint ?? null };
}

/** `file:line:col: error[code]: message (hint)` — one line, for editors and CI annotations. */
export function renderShort(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.column}: ${d.severity}[${d.code}]: ${d.message}${d.hint ? ` (${d.hint})` : ""}`;
}

/** The Hurl-style block: title, location, the source line and a caret under the culprit. */
export function renderLong(d: Diagnostic, options: RenderOptions = {}): string {
  const paint = painter(options.color ?? false);
  const tone = d.severity === "error" ? paint.red : paint.yellow;
  const lines = [`${tone(`${d.severity}[${d.code}]`)}${paint.bold(`: ${d.message}`)}`];
  const gutter = " ".repeat(String(d.line).length);
  lines.push(`${gutter}${paint.blue("-->")} ${d.file}:${d.line}:${d.column}`);
  const text = options.sources?.get(d.file);
  const sourceLine = text === undefined ? undefined : lineAt(text, d.line);
  if (sourceLine !== undefined) {
    const { shown, caretStart, caretLength } = window(sourceLine, d.column - 1, d.length);
    lines.push(`${gutter} ${paint.blue("|")}`);
    lines.push(`${paint.blue(`${d.line} |`)} ${shown}`);
    lines.push(`${gutter} ${paint.blue("|")} ${" ".repeat(caretStart)}${tone("^".repeat(caretLength))}${d.hint ? ` ${tone(d.hint)}` : ""}`);
  } else if (d.hint) {
    lines.push(`${gutter} ${paint.blue("=")} hint: ${d.hint}`);
  }
  return `${lines.join("\n")}\n`;
}

function lineAt(text: string, line: number): string | undefined {
  let start = 0;
  for (let n = 1; n < line; n++) {
    const next = text.indexOf("\n", start);
    if (next === -1) return undefined;
    start = next + 1;
  }
  const end = text.indexOf("\n", start);
  return text.slice(start, end === -1 ? text.length : end).replace(/\r$/, "");
}

/** Makes a source line printable (tabs expanded, control characters shown) and short enough to read. */
function window(line: string, column: number, length: number): { shown: string; caretStart: number; caretLength: number } {
  const chars = [...line.slice(0, column)].length;
  let printable = "";
  let caretStart = 0;
  let caretEnd = 0;
  [...line].forEach((ch, i) => {
    if (i === chars) caretStart = printable.length;
    if (i === chars + length) caretEnd = printable.length;
    printable += ch === "\t" ? "    " : ch < " " || ch === "\u007f" ? "�" : ch;
  });
  if (chars >= [...line].length) caretStart = printable.length;
  if (caretEnd <= caretStart) caretEnd = Math.max(caretStart + 1, Math.min(printable.length, caretStart + length));
  let caretLength = Math.max(1, caretEnd - caretStart);
  if (printable.length <= MAX_SHOWN) return { shown: printable, caretStart, caretLength };
  const from = Math.max(0, Math.min(caretStart - 40, printable.length - MAX_SHOWN));
  const shown = `${from > 0 ? "…" : ""}${printable.slice(from, from + MAX_SHOWN)}${from + MAX_SHOWN < printable.length ? "…" : ""}`;
  caretLength = Math.min(caretLength, MAX_SHOWN);
  return { shown, caretStart: caretStart - from + (from > 0 ? 1 : 0), caretLength };
}

function painter(enabled: boolean) {
  const wrap = (code: string) => (s: string) => (enabled ? `\u001b[${code}m${s}\u001b[0m` : s);
  return { red: wrap("1;31"), yellow: wrap("1;33"), blue: wrap("1;34"), bold: wrap("1") };
}

/** "2 errors and 1 warning" */
export function summarize(diagnostics: readonly Diagnostic[]): string {
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const warnings = diagnostics.length - errors;
  const part = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  return `${part(errors, "error")} and ${part(warnings, "warning")}`;
}
