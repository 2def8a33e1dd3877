import { brokenText, judgedExpectations, type ReportInput } from "./broken.js";

interface Case {
  name: string;
  classname: string;
  timeMs: number;
  line?: number;
  failure?: { message: string; type: string; text: string };
  skipped?: string;
}

/**
 * The run as JUnit XML: one testsuite for the run, one testcase per step and per expectation,
 * a failure (with its message) for each failed step and broken expectation, skipped steps skipped.
 */
export function junitReport({ summary, file, stepAt }: ReportInput): string {
  const pipeline = summary.pipeline ?? "pipeline";
  const cases: Case[] = summary.steps.map((step) => {
    const at = stepAt(step.id);
    const base: Case = { name: step.id, classname: pipeline, timeMs: step.durationMs ?? 0, ...(at ? { line: at.line } : {}) };
    if (step.status === "failed") {
      const message = step.error ?? "the step failed";
      return { ...base, failure: { message, type: step.cause === "expectation" ? "expectation" : "step", text: `${file}${at ? `:${at.line}:${at.column}` : ""}: ${message}` } };
    }
    if (step.status === "skipped" || step.status === "cancelled") return { ...base, skipped: step.error ?? step.status };
    return base;
  });
  for (const e of judgedExpectations(summary)) {
    const { result } = e;
    const where = `${file}:${result.at.line}:${result.at.column}`;
    cases.push({
      name: `${e.step ?? "pipeline"} expect ${result.name}`,
      classname: e.step ? `${pipeline}.${e.step}` : pipeline,
      timeMs: 0,
      line: result.at.line,
      ...(result.passed ? {} : { failure: { message: `${result.name}: ${result.problems.join("; ")}`, type: "expectation", text: `${where}: ${brokenText(result)}` } }),
    });
  }
  const failures = cases.filter((c) => c.failure).length;
  const skipped = cases.filter((c) => c.skipped !== undefined).length;
  const time = seconds(summary.steps.reduce((n, s) => n + (s.durationMs ?? 0), 0));
  const counts = `tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${time}"`;
  const lines = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="scrapeline" ${counts}>`,
    `  <testsuite name="${attr(pipeline)}" ${counts} file="${attr(file)}"${summary.runId !== undefined ? ` id="${summary.runId}"` : ""}>`,
    ...cases.map(testcase(file)),
    `  </testsuite>`,
    `</testsuites>`,
  ];
  return `${lines.join("\n")}\n`;
}

const testcase = (file: string) => (c: Case): string => {
  const open = `    <testcase name="${attr(c.name)}" classname="${attr(c.classname)}" time="${seconds(c.timeMs)}" file="${attr(file)}"${c.line !== undefined ? ` line="${c.line}"` : ""}`;
  if (c.failure) return `${open}>\n      <failure message="${attr(c.failure.message)}" type="${c.failure.type}">${text(c.failure.text)}</failure>\n    </testcase>`;
  if (c.skipped !== undefined) return `${open}>\n      <skipped message="${attr(c.skipped)}"/>\n    </testcase>`;
  return `${open}/>`;
};

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** Characters XML 1.0 cannot hold at all are dropped; markup characters are escaped. */
const clean = (s: string) => s.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "");
const text = (s: string) => clean(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const attr = (s: string) => text(s).replace(/"/g, "&quot;").replace(/\n/g, "&#10;").replace(/\r/g, "&#13;").replace(/\t/g, "&#9;");
