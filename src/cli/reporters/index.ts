import { appendFileSync, writeFileSync } from "node:fs";
import type { ReportInput } from "./broken.js";
import { githubAnnotations, githubStepSummary } from "./github.js";
import { junitReport } from "./junit.js";

export { brokenLines, type ReportInput } from "./broken.js";

export type Reporter = { kind: "junit"; file: string } | { kind: "github" };

/** Reads `--reporter` values (junit=FILE, github); a string saying what is wrong otherwise. */
export function parseReporters(values: readonly string[]): Reporter[] | string {
  const out: Reporter[] = [];
  for (const value of values) {
    if (value === "github") out.push({ kind: "github" });
    else if (value.startsWith("junit=") && value.length > "junit=".length) out.push({ kind: "junit", file: value.slice("junit=".length) });
    else if (value === "junit") return `--reporter junit needs a file to write: --reporter junit=FILE`;
    else return `unknown reporter "${value}": use junit=FILE or github`;
  }
  return out;
}

/**
 * Writes each reporter's output: a JUnit file; GitHub annotations on `annotate` (stdout, or stderr
 * when stdout carries JSON) and the job summary appended to $GITHUB_STEP_SUMMARY when it is set.
 */
export function writeReports(reporters: readonly Reporter[], input: ReportInput, annotate: (text: string) => void, env: Readonly<Record<string, string | undefined>> = process.env): void {
  for (const reporter of reporters) {
    if (reporter.kind === "junit") writeFileSync(reporter.file, junitReport(input));
    else {
      annotate(githubAnnotations(input));
      const summaryFile = env.GITHUB_STEP_SUMMARY;
      if (summaryFile) appendFileSync(summaryFile, githubStepSummary(input));
    }
  }
}
