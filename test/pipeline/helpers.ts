import { stringify } from "yaml";
import { loadPipelineText, type LoadResult } from "../../src/pipeline/index.js";

/** Loads a pipeline given as YAML text (or as data, turned into YAML). */
export function load(input: string | object, env: Record<string, string> = {}): LoadResult {
  const text = typeof input === "string" ? input : stringify(input);
  return loadPipelineText("p.yaml", text, { env });
}

export function codes(result: LoadResult, severity?: "error" | "warning"): string[] {
  return result.diagnostics.filter((d) => !severity || d.severity === severity).map((d) => d.code);
}

/** A valid one-step pipeline whose step body can be replaced. */
export function withStep(step: object, extra: object = {}): object {
  return { version: 1, name: "t", ...extra, steps: [{ id: "s", ...step }] };
}

export function scrape(body: object, extra: object = {}): object {
  return withStep({ scrape: { url: "https://example.com/", ...body } }, extra);
}
