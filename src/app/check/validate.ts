import { hasErrors, type Diagnostic } from "../../core/index.js";
import { loadPipeline, type LoadResult } from "../../pipeline/index.js";
import { expandPipelinePaths } from "../common/index.js";
import { readinessWarnings } from "./readiness.js";

export interface ValidateReport {
  files: LoadResult[];
  diagnostics: Diagnostic[];
  /** File text by path, for quoting source lines in diagnostics. */
  sources: Map<string, string>;
  valid: boolean;
}

export interface ValidateOptions {
  env?: Readonly<Record<string, string | undefined>>;
  /** Treat warnings as failures. */
  strict?: boolean;
  /** The run would have --allow-private-network: loopback and private addresses are not warned about. */
  allowPrivateNetwork?: boolean;
}

/** Validates every pipeline under the given paths; all problems at once, nothing thrown. */
export async function validatePipelines(paths: readonly string[], options: ValidateOptions = {}): Promise<ValidateReport> {
  const files = await expandPipelinePaths(paths);
  const env = options.env ?? process.env;
  const results = await Promise.all(files.map((file) => loadPipeline(file, { env })));
  // What a valid file would surely fail at when run here (a private address, no model, no search provider).
  for (const r of results) if (r.pipeline && r.locate) r.diagnostics.push(...readinessWarnings(r.pipeline, r.locate, { env, allowPrivateNetwork: Boolean(options.allowPrivateNetwork) }));
  const diagnostics = results.flatMap((r) => r.diagnostics);
  const sources = new Map<string, string>();
  for (const r of results) if (r.diagnostics.length > 0 && r.text !== undefined) sources.set(r.file, r.text);
  const valid = !hasErrors(diagnostics) && !(options.strict && diagnostics.length > 0);
  if (files.length === 0) {
    diagnostics.push({ file: paths.join(" "), line: 1, column: 1, length: 1, severity: "error", code: "no-pipelines", message: `no pipeline files (*.yaml, *.yml) found in ${paths.join(", ")}` });
    return { files: results, diagnostics, sources, valid: false };
  }
  return { files: results, diagnostics, sources, valid };
}
