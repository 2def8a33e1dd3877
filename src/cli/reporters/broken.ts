import type { ExpectationResult, SourcePosition } from "../../core/index.js";
import type { RunSummary } from "../summary.js";

/** What a reporter is handed: the run summary, and where each step is written. */
export interface ReportInput {
  summary: RunSummary;
  /** The pipeline file as given (positions are in it). */
  file: string;
  stepAt: (stepId: string) => SourcePosition | undefined;
}

/** An expectation with the step it belongs to (none: the pipeline's own). */
export interface JudgedExpectation {
  step?: string;
  result: ExpectationResult;
}

/** Every judged expectation of a run, steps' in step order, then the pipeline's. */
export function judgedExpectations(summary: RunSummary): JudgedExpectation[] {
  const out: JudgedExpectation[] = [];
  for (const step of summary.steps) for (const result of step.expectations?.results ?? []) out.push({ step: step.id, result });
  for (const result of summary.expectations?.results ?? []) out.push({ result });
  return out;
}

/** "products: markdown" or "pipeline: documents" */
export const expectationLabel = (e: JudgedExpectation): string => `${e.step ?? "pipeline"}: ${e.result.name}`;

/** The problems of a broken expectation and the pages that broke it, in one line. */
export function brokenText(result: ExpectationResult): string {
  const pages = result.pagesTotal > 0 ? `; pages: ${result.pages.join(", ")}${result.pagesTotal > result.pages.length ? ` (${result.pagesTotal} in all)` : ""}` : "";
  return `${result.problems.join("; ")} (seen: ${result.seen})${pages}`;
}

/** Lines for the end of a run's human summary: each broken expectation at its place in the file. */
export function brokenLines(file: string, summary: RunSummary): string {
  const broken = judgedExpectations(summary).filter((e) => !e.result.passed);
  return broken.map((e) => `${file}:${e.result.at.line}:${e.result.at.column}: expectation broken: ${expectationLabel(e)}: ${brokenText(e.result)}\n`).join("");
}
