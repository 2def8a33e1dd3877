import type { Diagnostic } from "../core/index.js";
import { estimateStep } from "../credits/index.js";
import { planPipeline } from "../planner/index.js";
import { loadPipeline, redactInterpolations } from "../pipeline/index.js";

export interface PlanView {
  file: string;
  name: string;
  description?: string;
  engine: unknown;
  concurrency: number;
  perHostConcurrency: number;
  retry: unknown;
  budget: unknown;
  allowPrivateNetwork: boolean;
  stages: number;
  /** What the run is expected to cost at most; `exact` false when a count is only known at run time. */
  estimate: { credits: number; exact: boolean };
  steps: Array<{ id: string; kind: string; stage: number; dependsOn: string[]; estimate: { credits: number; exact: boolean; note: string }; retry: unknown; timeoutMs?: number; continueOnError: boolean; fromPrompt?: unknown; body: unknown }>;
}

export interface PlanReport {
  plan?: PlanView;
  diagnostics: Diagnostic[];
  sources: Map<string, string>;
}

/**
 * Loads and plans one pipeline, returning the normalized steps in run order. Values taken from
 * the environment are shown as their `${VAR}` reference, so a plan can be printed in CI logs.
 */
export async function planFile(file: string, options: { env?: Readonly<Record<string, string | undefined>> } = {}): Promise<PlanReport> {
  const loaded = await loadPipeline(file, options.env ? { env: options.env } : {});
  const sources = new Map<string, string>();
  if (loaded.diagnostics.length > 0 && loaded.text !== undefined) sources.set(file, loaded.text);
  if (!loaded.pipeline) return { diagnostics: loaded.diagnostics, sources };
  const plan = planPipeline(loaded.pipeline);
  const p = plan.pipeline;
  const view: PlanView = {
    file: p.file,
    name: p.name,
    ...(p.description !== undefined ? { description: p.description } : {}),
    engine: p.engine,
    concurrency: p.concurrency,
    perHostConcurrency: p.perHostConcurrency,
    retry: p.retry,
    budget: p.budget,
    allowPrivateNetwork: p.allowPrivateNetwork,
    stages: plan.stages.length,
    estimate: { credits: 0, exact: true },
    steps: plan.steps.map(({ step, stage, dependsOn }) => ({
      id: step.id,
      kind: step.kind,
      stage,
      dependsOn,
      estimate: estimateStep(step),
      retry: step.retry,
      ...(step.timeoutMs !== undefined ? { timeoutMs: step.timeoutMs } : {}),
      continueOnError: step.continueOnError,
      ...(step.kind === "crawl" && step.fromPrompt ? { fromPrompt: step.fromPrompt } : {}),
      body: step.body,
    })),
  };
  view.estimate = { credits: view.steps.reduce((n, s) => n + s.estimate.credits, 0), exact: view.steps.every((s) => s.estimate.exact) };
  return { plan: redactInterpolations(view, loaded.interpolations), diagnostics: loaded.diagnostics, sources };
}
