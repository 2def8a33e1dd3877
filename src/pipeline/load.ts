import { hasErrors, sortDiagnostics, type Diagnostic, type Pipeline } from "../core/index.js";
import { semanticChecks } from "./checks.js";
import { warnLiteralCredentials } from "./step-kinds/index.js";
import { interpolate, type Interpolation } from "./interpolate.js";
import { normalizePipeline } from "./normalize.js";
import { Reporter } from "./reporter.js";
import { bundledSchemas } from "./schema.js";
import { schemaDiagnostics } from "./schema-errors.js";
import { isObj } from "./sites.js";
import { decodeSource, readSource } from "./yaml/index.js";
import { locate, parseYaml, spanAt, spanOf, toData } from "./yaml/index.js";

export interface LoadOptions {
  /** Variables for `${VAR}` interpolation; the process environment by default. */
  env?: Readonly<Record<string, string | undefined>>;
}

export interface LoadResult {
  file: string;
  /** Present when the file has no errors (it may have warnings). */
  pipeline?: Pipeline;
  diagnostics: Diagnostic[];
  /** Values taken from the environment, so output can show `${VAR}` instead of a secret. */
  interpolations: Interpolation[];
  /** The file's text, when it was read as text: for quoting source lines without reading it again. */
  text?: string;
  /** Where a path of the file is (steps, index, kind, key…), for findings made after loading; undefined when the file has no such node. */
  locate?: (path: readonly (string | number)[]) => { line: number; column: number; length: number } | undefined;
}

export async function loadPipeline(file: string, options: LoadOptions = {}): Promise<LoadResult> {
  const source = await readSource(file);
  if (!source.ok) return { file, diagnostics: [source.diagnostic], interpolations: [] };
  return { ...loadPipelineText(file, source.text, options), text: source.text };
}

export function loadPipelineBytes(file: string, bytes: Uint8Array, options: LoadOptions = {}): LoadResult {
  const source = decodeSource(file, bytes);
  if (!source.ok) return { file, diagnostics: [source.diagnostic], interpolations: [] };
  return loadPipelineText(file, source.text, options);
}

/** File text → diagnostics and, when there are no errors, the normalized pipeline. Never throws. */
export function loadPipelineText(file: string, text: string, options: LoadOptions = {}): LoadResult {
  try {
    return loadUnsafe(file, text, options);
  } catch (error) {
    const internal: Diagnostic = {
      file,
      line: 1,
      column: 1,
      length: 1,
      severity: "error",
      code: error instanceof RangeError ? "too-complex" : "internal",
      message: error instanceof RangeError ? `file is too deeply nested or too large to check (${error.message})` : `unexpected failure while checking this file: ${(error as Error).message}`,
    };
    return { file, diagnostics: [internal], interpolations: [] };
  }
}

function loadUnsafe(file: string, text: string, options: LoadOptions): LoadResult {
  const parsed = parseYaml(file, text);
  if (!parsed.ok) return { file, diagnostics: sortDiagnostics(parsed.diagnostics), interpolations: [] };
  const source = parsed.source;
  const { interpolations, diagnostics, unresolved } = interpolate(source, options.env ?? process.env);
  const converted = toData(source);
  if (!converted.ok) return { file, diagnostics: [...diagnostics, converted.diagnostic], interpolations };
  const data = converted.data;
  if (!isObj(data)) {
    const found = Array.isArray(data) ? "a list" : typeof data === "string" ? "a string" : data === null ? "null" : `a ${typeof data}`;
    diagnostics.push({
      file,
      ...spanOf(source, source.doc.contents ?? undefined),
      severity: "error",
      code: "not-a-pipeline",
      message: `a pipeline file is a mapping, found ${found}`,
      hint: "start with `version: 1`, a `name` and a list of `steps`",
    });
    return { file, diagnostics, interpolations };
  }
  const { validate } = bundledSchemas();
  const schemaValid = validate(data);
  if (!schemaValid) diagnostics.push(...schemaDiagnostics(source, data, validate.errors ?? []));
  const report = new Reporter(source);
  semanticChecks(data, report);
  warnLiteralCredentials(data, interpolations, report);
  const result: LoadResult = { file, diagnostics, interpolations, locate: (path) => (locate(source, path).node ? spanAt(source, path) : undefined) };
  // Normalizing needs schema-valid data; it runs even when semantic checks failed, so its
  // warnings (v1 forms and the like) arrive together with every error.
  if (schemaValid) {
    const pipeline = normalizePipeline(file, data, report);
    if (!hasErrors([...diagnostics, ...report.diagnostics])) result.pipeline = pipeline;
  }
  const echoes = new Set(unresolved.map((path) => spanKey(spanAt(source, path))));
  const findings = [...diagnostics, ...report.diagnostics].filter((d) => VARIABLE_CODES.has(d.code) || !echoes.has(spanKey(d)));
  result.diagnostics = sortDiagnostics(dedupe(findings));
  return result;
}

const VARIABLE_CODES = new Set(["unset-variable", "bad-variable", "unterminated-variable"]);
const spanKey = (s: { line: number; column: number }) => `${s.line}:${s.column}`;

function dedupe(diagnostics: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    const key = `${d.line}:${d.column}:${d.code}:${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
