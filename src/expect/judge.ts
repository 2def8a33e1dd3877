import type { Expectation, ExpectationJudge, ExpectationResult, ExpectationVerdict, RunTotals, StepFacts } from "../core/index.js";
import { judgeCount } from "./counts.js";
import { FieldTally } from "./fields.js";
import { MarkdownTally } from "./markdown.js";

/**
 * Judges a finished step's expectations over what it left: its counts, and each stored page (read
 * once) for fields, markdown and change status. An extract step's fields are judged on its merged data.
 */
export function judgeStep(expectations: readonly Expectation[], facts: StepFacts): ExpectationVerdict {
  const fields = new Map<Expectation, FieldTally>();
  const markdowns = new Map<Expectation, MarkdownTally>();
  for (const e of expectations) {
    if (e.kind === "field") fields.set(e, new FieldTally(e.path, e.rule, e.at));
    if (e.kind === "markdown") markdowns.set(e, new MarkdownTally(e));
  }
  const changed: string[] = [];
  const needsPages = fields.size > 0 || markdowns.size > 0 || expectations.some((e) => e.kind === "count" && e.name === "changed");
  if (needsPages) {
    for (const page of facts.pages) {
      if (page.changeStatus === "changed") changed.push(page.url);
      if (!facts.merged) for (const tally of fields.values()) tally.add(page.url, page.json);
      for (const tally of markdowns.values()) tally.add(page.url, page.markdown);
    }
  }
  if (facts.merged) for (const tally of fields.values()) tally.add(undefined, facts.merged.data);

  const tried = facts.documents + facts.failures.length;
  const failedPages = facts.failures.map((f) => f.url);
  const blockedPages = facts.failures.filter((f) => f.blocked).map((f) => f.url);
  const results = expectations.map((e): ExpectationResult => {
    if (e.kind === "field") return fields.get(e)!.result();
    if (e.kind === "markdown") return markdowns.get(e)!.result();
    const pages = e.name === "failed" ? failedPages : e.name === "blocked" ? blockedPages : e.name === "changed" ? changed : [];
    const value = e.name === "documents" ? facts.documents : pages.length;
    return judgeCount(e.name, e.bounds, e.at, { value, tried, pages });
  });
  return { passed: results.every((r) => r.passed), results };
}

/** Judges the pipeline's expectations over the whole run's totals. */
export function judgeRun(expectations: readonly Expectation[], totals: RunTotals): ExpectationVerdict {
  const tried = totals.documents + totals.failed;
  const results = expectations.flatMap((e): ExpectationResult[] => (e.kind === "count" ? [judgeCount(e.name, e.bounds, e.at, { value: totals[e.name], tried, pages: [] })] : []));
  return { passed: results.every((r) => r.passed), results };
}

/** The judge as the runner's port. */
export const expectationJudge: ExpectationJudge = { step: judgeStep, run: judgeRun };
