import type { Diagnostic, Pipeline, Step, ValidationIssue } from "../core/index.js";
import { loadPipelineText } from "./load.js";

export type RequestKind = "scrape" | "crawl" | "map" | "extract" | "parse" | "search" | "agent";

export interface RequestReading {
  /** The normalized step (v1 forms mapped, defaults applied), when the body has no errors. */
  step?: Step;
  /** The one-step pipeline around it, with the language's defaults (retry, concurrency, change comparison). */
  pipeline?: Pipeline;
  diagnostics: Diagnostic[];
}

/** The id the step of a request body gets; diagnostics about it read "in scrape step ...". */
const STEP_ID = "request";

/**
 * Checks and normalizes a request body of the service (POST /v2/scrape, /v2/crawl, /v2/map)
 * exactly as the same body in a pipeline step: the bundled schemas (unknown keys are errors),
 * the semantic checks, v1 → v2 and defaults. Nothing is taken from the environment: a literal
 * `${...}` in a body stays literal.
 */
export function readRequestBody(kind: RequestKind, body: Record<string, unknown>): RequestReading {
  const pipeline = { version: 1, name: "request", steps: [{ id: STEP_ID, [kind]: body }] };
  // `$${` is the file language's escape for a literal `${`; JSON text is YAML.
  const text = JSON.stringify(pipeline).replaceAll("${", () => "$${");
  const loaded = loadPipelineText(`${kind} request`, text, { env: {} });
  const step = loaded.pipeline?.steps[0];
  const own = new RegExp(` in ${kind} step "${STEP_ID}"`, "g");
  const named = new RegExp(`${kind} step "${STEP_ID}"`, "g");
  const diagnostics = loaded.diagnostics.map((d) => ({ ...d, message: d.message.replace(own, "").replace(named, "the body"), ...(d.issue ? { issue: bodyIssue(d.issue, kind) } : {}) }));
  return { ...(step && loaded.pipeline ? { step, pipeline: loaded.pipeline } : {}), diagnostics };
}

/** An issue's path from the body's top (the pipeline around it is steps[0].<kind>), its message about the body. */
function bodyIssue(issue: ValidationIssue, kind: RequestKind): ValidationIssue {
  const inBody = issue.path[0] === "steps" && issue.path[1] === 0 && issue.path[2] === kind;
  const message = issue.message.replace(new RegExp(` in ${kind} step "${STEP_ID}"`, "g"), "").replace(new RegExp(`${kind} step "${STEP_ID}"`, "g"), "the body");
  return { ...issue, path: inBody ? issue.path.slice(3) : issue.path, message };
}
