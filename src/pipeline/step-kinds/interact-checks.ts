import type { Reporter } from "../reporter.js";
import { isObj, stepsOf } from "../sites.js";
import { checkTabsEngine } from "./sessions.js";
import { didYouMean } from "../suggest.js";

/** An interact step carries on from a scrape step above it; its tabs need the local engine. */
export function checkInteractSteps(data: unknown, report: Reporter): void {
  checkTabsEngine(data, report);
  const steps = stepsOf(data);
  const scrapes = steps.filter(({ step }) => isObj(step.scrape) && typeof step.id === "string").map(({ index, step }) => ({ index, id: step.id as string }));
  for (const { index, step } of steps) {
    if (!isObj(step.interact) || typeof step.interact.from !== "string") continue;
    const from = step.interact.from;
    const path = ["steps", index, "interact", "from"];
    const target = scrapes.find((s) => s.id === from);
    if (!target) {
      const other = steps.find(({ step: s }) => s.id === from);
      report.error(path, {
        code: "unknown-step",
        message: other ? `interact carries on from scrape steps only; "${from}" is not one` : `interact names "${from}", which is not a step of this pipeline`,
        hint: didYouMean(from, scrapes.map((s) => s.id)) ?? (scrapes.length ? `scrape steps: ${scrapes.map((s) => `"${s.id}"`).join(", ")}` : "add a scrape step above it"),
      });
    } else if (target.index >= index) {
      report.error(path, { code: "step-order", message: `interact names "${from}", which comes later in the file`, hint: `move step "${from}" above this one` });
    }
  }
}
