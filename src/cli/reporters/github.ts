import { brokenText, expectationLabel, judgedExpectations, type ReportInput } from "./broken.js";

/**
 * GitHub Actions workflow commands: an error annotation on the YAML line of each broken
 * expectation, and of each step that failed for another reason.
 */
export function githubAnnotations({ summary, file, stepAt }: ReportInput): string {
  const lines: string[] = [];
  for (const step of summary.steps) {
    if (step.status !== "failed" || step.cause === "expectation") continue;
    const at = stepAt(step.id);
    lines.push(command({ file, ...(at ? { line: at.line, col: at.column } : {}), title: `step ${step.id} failed` }, step.error ?? "the step failed"));
  }
  for (const e of judgedExpectations(summary)) {
    if (e.result.passed) continue;
    lines.push(command({ file, line: e.result.at.line, col: e.result.at.column, title: `expectation broken: ${expectationLabel(e)}` }, brokenText(e.result)));
  }
  return lines.map((l) => `${l}\n`).join("");
}

/** The job summary (markdown) appended to $GITHUB_STEP_SUMMARY. */
export function githubStepSummary({ summary, file }: ReportInput): string {
  const rows = summary.steps.map((s) => `| ${cell(s.id)} | ${s.status}${s.cause ? ` (${s.cause})` : ""} | ${s.documents} | ${s.failed} | ${s.credits} |`);
  const broken = judgedExpectations(summary).filter((e) => !e.result.passed);
  const judged = judgedExpectations(summary).length;
  const out = [
    `### scrapeline: ${cell(summary.pipeline ?? file)} ${summary.status}${summary.cause ? ` (${summary.cause})` : ""}`,
    "",
    "| step | status | documents | failed | credits |",
    "| --- | --- | --- | --- | --- |",
    ...rows,
    "",
    judged === 0 ? "No expectations." : `${judged - broken.length} of ${judged} expectations held.`,
    ...broken.map((e) => `- \`${file}:${e.result.at.line}:${e.result.at.column}\` **${cell(expectationLabel(e))}**: ${cell(brokenText(e.result))}`),
    "",
  ];
  return `${out.join("\n")}\n`;
}

function command(props: { file: string; line?: number; col?: number; title: string }, message: string): string {
  const list = Object.entries(props).map(([k, v]) => `${k}=${property(String(v))}`);
  return `::error ${list.join(",")}::${data(message)}`;
}

/** Escaping of workflow command data and properties (as @actions/core does). */
const data = (s: string) => s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
const property = (s: string) => data(s).replace(/:/g, "%3A").replace(/,/g, "%2C");
const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");
