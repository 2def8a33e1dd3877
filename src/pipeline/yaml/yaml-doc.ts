import { Document, isAlias, isMap, isPair, isScalar, isSeq, LineCounter, parseAllDocuments, type Node } from "yaml";
import type { Diagnostic } from "../../core/index.js";
import { checkStructure, MAX_DEPTH, scanDepth, tooDeep, type Finding } from "./yaml-limits.js";

/** A parsed pipeline file that remembers where every value came from. */
export interface SourceDoc {
  file: string;
  text: string;
  doc: Document.Parsed;
  lines: LineCounter;
}

/** Path of a value inside the document: map keys and sequence indexes. */
export type Path = readonly (string | number)[];

export { MAX_DEPTH };
/** Aliases expanded at most this many times when converting to plain data (billion laughs). */
export const MAX_ALIAS_COUNT = 100;

export type ParseResult = { ok: true; source: SourceDoc } | { ok: false; diagnostics: Diagnostic[] };

export function parseYaml(file: string, text: string): ParseResult {
  const lines = new LineCounter();
  const at = (offset: number, length = 1): Pick<Diagnostic, "line" | "column" | "length"> => {
    const { line, col } = lines.linePos(offset);
    return { line, column: col, length };
  };
  const problem = (offset: number, code: string, message: string, hint?: string, length = 1): Diagnostic => {
    const d: Diagnostic = { file, ...at(offset, length), severity: "error", code, message };
    if (hint) d.hint = hint;
    return d;
  };
  const finding = (f: Finding): Diagnostic => problem(f.offset, f.code, f.message, f.hint);
  const early = scanDepth(text);
  if (early) {
    // Line positions come from parsing; a scan that stops early only needs its own newlines.
    lines.addNewLine(0);
    for (let i = text.indexOf("\n"); i !== -1 && i < early.offset; i = text.indexOf("\n", i + 1)) lines.addNewLine(i + 1);
    return { ok: false, diagnostics: [finding(early)] };
  }
  // logLevel "error": the library's own warnings (printed with process.emitWarning) never reach
  // the user's terminal; everything it has to say arrives as positioned errors and warnings.
  const docs = parseAllDocuments(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true, strict: true, logLevel: "error" });

  if (!Array.isArray(docs)) {
    // An empty stream: parseAllDocuments returns an empty-document marker.
    return { ok: false, diagnostics: [problem(0, "empty-file", "file is empty", EMPTY_HINT)] };
  }
  if (docs.length === 0) return { ok: false, diagnostics: [problem(0, "empty-file", "file is empty", EMPTY_HINT)] };
  if (docs.length > 1) {
    const second = docs[1]!;
    return {
      ok: false,
      diagnostics: [
        problem(second.range[0], "multiple-documents", "a pipeline file holds one YAML document, this one holds several", "remove the `---` separator or split the file"),
      ],
    };
  }
  const doc = docs[0]!;
  const diagnostics: Diagnostic[] = [];
  for (const error of doc.errors) {
    if (error.code === "DUPLICATE_KEY") {
      const key = /^[^:\n]*/.exec(text.slice(error.pos[0]))?.[0].trim() ?? "";
      diagnostics.push(problem(error.pos[0], "duplicate-key", `duplicate key "${key}"`, yamlHint(error.code), Math.max(1, key.length)));
      continue;
    }
    if (error.code === "RESOURCE_EXHAUSTION") {
      // The composer recursed until the stack ran out: nesting far past MAX_DEPTH.
      diagnostics.push(finding(tooDeep(error.pos[0])));
      continue;
    }
    diagnostics.push(problem(error.pos[0], yamlCode(error.code), firstLine(error.message), yamlHint(error.code), Math.max(1, error.pos[1] - error.pos[0])));
  }
  for (const warning of doc.warnings) {
    const d = problem(warning.pos[0], yamlCode(warning.code), firstLine(warning.message));
    d.severity = "warning";
    diagnostics.push(d);
  }
  if (diagnostics.some((d) => d.severity === "error")) return { ok: false, diagnostics };
  if (doc.contents === null) return { ok: false, diagnostics: [...diagnostics, problem(0, "empty-file", "file holds no pipeline (only comments or blank lines)", EMPTY_HINT)] };
  const structural = checkStructure(doc.contents);
  if (structural.length > 0) return { ok: false, diagnostics: [...diagnostics, ...structural.map(finding)] };
  return { ok: true, source: { file, text, doc, lines } };
}

const EMPTY_HINT = "a pipeline starts with `version: 1`, a `name` and a list of `steps`";

function firstLine(message: string): string {
  const line = message.split("\n")[0] ?? message;
  return line.replace(/ at line \d+, column \d+:?$/, "").replace(/:$/, "");
}

function yamlCode(code: string): string {
  switch (code) {
    case "DUPLICATE_KEY":
      return "duplicate-key";
    case "TAB_AS_INDENT":
      return "tab-indent";
    default:
      return "yaml-syntax";
  }
}

function yamlHint(code: string): string | undefined {
  switch (code) {
    case "DUPLICATE_KEY":
      return "each key may appear once in a mapping; remove or rename one";
    case "TAB_AS_INDENT":
      return "YAML indents with spaces; replace the tab";
    default:
      return undefined;
  }
}

export interface Located {
  /** The value at the path, if the path exists. */
  node?: Node;
  /** The key under which the value sits, when its parent is a mapping. */
  key?: Node;
  /** The deepest existing ancestor, when the path does not exist. */
  nearest?: Node;
}

/** Finds the YAML nodes for a data path, following aliases. */
export function locate(source: SourceDoc, path: Path): Located {
  let current: unknown = source.doc.contents;
  let key: Node | undefined;
  for (const segment of path) {
    if (isAlias(current)) current = current.resolve(source.doc);
    if (isMap(current)) {
      const pair = current.items.find((p) => isScalar(p.key) && String(p.key.value) === String(segment));
      if (!pair) return { nearest: current as Node, ...(key ? { key } : {}) };
      key = pair.key as Node;
      current = pair.value;
    } else if (isSeq(current) && typeof segment === "number") {
      const item = current.items[segment];
      if (item === undefined) return { nearest: current as Node };
      key = undefined;
      current = item;
    } else {
      return current ? { nearest: current as Node } : {};
    }
  }
  if (isAlias(current)) current = current.resolve(source.doc);
  return { ...(current ? { node: current as Node } : {}), ...(key ? { key } : {}) };
}

export interface Span {
  line: number;
  column: number;
  length: number;
}

/** Position of a node, with the caret length clipped to the node's first line. */
export function spanOf(source: SourceDoc, node: Node | undefined): Span {
  if (!node?.range) return { line: 1, column: 1, length: 1 };
  const [start, end] = node.range;
  const { line, col } = source.lines.linePos(start);
  const newline = source.text.indexOf("\n", start);
  const stop = Math.min(end, newline === -1 ? source.text.length : newline);
  return { line, column: col, length: Math.max(1, stop - start) };
}

/** Position for a finding about `path`: the key for key problems, else the value. */
export function spanAt(source: SourceDoc, path: Path, prefer: "key" | "value" = "value"): Span {
  const found = locate(source, path);
  if (prefer === "key" && found.key) return spanOf(source, found.key);
  if (found.node) return spanOf(source, found.node);
  if (found.key) return spanOf(source, found.key);
  return spanOf(source, found.nearest);
}

/** Converts the document to plain data, refusing alias bombs. */
export function toData(source: SourceDoc): { ok: true; data: unknown } | { ok: false; diagnostic: Diagnostic } {
  try {
    return { ok: true, data: source.doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) };
  } catch (error) {
    const firstAlias = findFirstAlias(source);
    const span = spanOf(source, firstAlias);
    return {
      ok: false,
      diagnostic: {
        file: source.file,
        ...span,
        severity: "error",
        code: "alias-bomb",
        message: `aliases expand past ${MAX_ALIAS_COUNT} nodes (${(error as Error).message})`,
        hint: "write the repeated values out, or use fewer nested aliases",
      },
    };
  }
}

function findFirstAlias(source: SourceDoc): Node | undefined {
  const stack: unknown[] = [source.doc.contents];
  while (stack.length > 0) {
    const node = stack.shift();
    if (isAlias(node)) return node as Node;
    if (isMap(node) || isSeq(node)) for (const item of node.items) stack.push(isPair(item) ? item.value : item);
  }
  return undefined;
}
