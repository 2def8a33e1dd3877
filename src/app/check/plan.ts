import type { Diagnostic } from "../../core/index.js";
import type { Interpolation } from "../../pipeline/index.js";
import { estimateStep } from "../../credits/index.js";
import { planPipeline } from "../../planner/index.js";
import { loadPipeline, redactInterpolations } from "../../pipeline/index.js";
import { readinessWarnings } from "./readiness.js";
import { scheduleView, type ScheduleView } from "./schedule-view.js";

export interface PlanView {
  file: string;
  name: string;
  description?: string;
  engine: unknown;
  concurrency: number;
  perHostConcurrency: number;
  retry: unknown;
  /** Absent when the pipeline sets no budget. */
  budget?: unknown;
  allowPrivateNetwork: boolean;
  stages: number;
  /** What the run is expected to cost at most; `exact` false when a count is only known at run time. */
  estimate: { credits: number; exact: boolean };
  /** When the pipeline runs by itself, with its next runs as read in its time zone. */
  schedule?: ScheduleView;
  steps: Array<{ id: string; kind: string; stage: number; dependsOn: string[]; estimate: { credits: number; exact: boolean; note: string }; retry: unknown; timeoutMs?: number; continueOnError: boolean; fromPrompt?: unknown; body: unknown; session?: string }>;
  /** The logins steps use, values from the environment shown as their reference. */
  sessions?: unknown;
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
export async function planFile(file: string, options: { env?: Readonly<Record<string, string | undefined>>; vars?: Record<string, string>; now?: Date; allowPrivateNetwork?: boolean } = {}): Promise<PlanReport> {
  const env = options.vars ? { ...(options.env ?? process.env), ...options.vars } : (options.env ?? process.env);
  const loaded = await loadPipeline(file, { env });
  if (loaded.pipeline && loaded.locate) loaded.diagnostics.push(...readinessWarnings(loaded.pipeline, loaded.locate, { env, allowPrivateNetwork: Boolean(options.allowPrivateNetwork) }));
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
    ...(Object.values(p.budget).some((v) => v !== undefined) ? { budget: p.budget } : {}),
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
      ...(step.session !== undefined ? { session: step.session } : {}),
    })),
    ...(p.sessions ? { sessions: p.sessions } : {}),
  };
  if (p.schedule) view.schedule = scheduleView(p.schedule, p.name, options.now ?? new Date());
  view.estimate = { credits: view.steps.reduce((n, s) => n + s.estimate.credits, 0), exact: view.steps.every((s) => s.estimate.exact) };
  const redacted = redactInterpolations(view, loaded.interpolations);
  showTypedReferences(redacted, p.steps, loaded.interpolations);
  return { plan: redacted, diagnostics: loaded.diagnostics, sources };
}

/**
 * A whole value such as `concurrency: ${CONC}` becomes a number or boolean, which the string
 * redaction does not see: the plan shows its reference as written instead, as it does for strings.
 */
function showTypedReferences(view: PlanView, steps: ReadonlyArray<{ id: string; kind: string }>, interpolations: readonly Interpolation[]): void {
  for (const { path, written, variables } of interpolations) {
    if (!variables.some((v) => v.value !== undefined)) continue;
    let target: unknown = view;
    let rest: ReadonlyArray<string | number> = path;
    if (path[0] === "steps" && typeof path[1] === "number") {
      const step = steps[path[1]];
      const shown = view.steps.find((s) => s.id === step?.id);
      if (!step || !shown) continue;
      target = path[2] === step.kind ? shown.body : shown;
      rest = path.slice(path[2] === step.kind ? 3 : 2);
    }
    if (rest.length === 0) continue;
    for (const key of rest.slice(0, -1)) target = target && typeof target === "object" ? (target as Record<string | number, unknown>)[key] : undefined;
    const last = rest[rest.length - 1]!;
    if (!target || typeof target !== "object") continue;
    const holder = target as Record<string | number, unknown>;
    if (typeof holder[last] === "number" || typeof holder[last] === "boolean") holder[last] = written;
  }
}
