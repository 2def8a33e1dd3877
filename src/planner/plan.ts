import type { Pipeline, Plan, PlannedStep, Step } from "../core/index.js";

export type { Plan, PlannedStep };

/** The steps a step waits for. */
export function dependenciesOf(step: Step): string[] {
  const from = (step.kind === "scrape" || step.kind === "extract") && !Array.isArray(step.body.urls) ? [step.body.urls.from] : step.kind === "interact" ? [step.body.from] : [];
  return [...new Set([...step.needs, ...from])];
}

/**
 * Orders a validated pipeline. Validation guarantees every dependency names an earlier step, so
 * one pass in file order assigns each step its stage.
 */
export function planPipeline(pipeline: Pipeline): Plan {
  const stageOf = new Map<string, number>();
  const planned = pipeline.steps.map((step) => {
    const dependsOn = dependenciesOf(step);
    const stage = dependsOn.reduce((max, id) => Math.max(max, (stageOf.get(id) ?? -1) + 1), 0);
    stageOf.set(step.id, stage);
    return { step, dependsOn, stage };
  });
  const stages: PlannedStep[][] = [];
  for (const p of planned) (stages[p.stage] ??= []).push(p);
  return { pipeline, steps: stages.flat(), stages };
}
