import type { ExtractResult, RunRecord, StepRecord } from "../../core/index.js";
import { ScrapelineError } from "../../core/index.js";
import { openExistingRunStore } from "../common/index.js";

export interface RunSummary extends RunRecord {
  documents: number;
  durationMs: number | null;
}

function summarize(run: RunRecord, steps: StepRecord[]): RunSummary {
  const durationMs = run.finishedAt ? Date.parse(run.finishedAt) - Date.parse(run.startedAt) : null;
  return { ...run, documents: steps.reduce((n, s) => n + s.documents, 0), durationMs };
}

/** Runs in the database, newest first. */
export function listRuns(db: string, options: { pipeline?: string; limit?: number } = {}): RunSummary[] {
  const store = openExistingRunStore(db);
  try {
    return store.listRuns({ ...(options.pipeline ? { pipelineName: options.pipeline } : {}), limit: options.limit ?? 50 }).map((run) => summarize(run, store.getSteps(run.id)));
  } finally {
    store.close();
  }
}

/** Resolves "latest" or a numeric id to a run id. */
export function resolveRunId(store: ReturnType<typeof openExistingRunStore>, ref: string | number | undefined): number {
  if (ref === undefined || ref === "latest") {
    const latest = store.listRuns({ limit: 1 })[0];
    if (!latest) throw new ScrapelineError("invalid-input", "the database has no runs yet");
    return latest.id;
  }
  const id = Number(ref);
  if (!Number.isInteger(id) || !store.getRun(id)) throw new ScrapelineError("invalid-input", `no run ${ref} in this database`);
  return id;
}

export interface RunDetail {
  run: RunSummary;
  steps: StepRecord[];
  failures: Array<{ stepId: string; url: string; kind: string; error: string }>;
  /** Results of extract steps, by step id. */
  results: Record<string, ExtractResult>;
  /** What the run warned about, per step or per page (url null: the step's). */
  warnings: Array<{ stepId: string; url: string | null; message: string }>;
  /** The pages of scrape steps with their scrapeId (what `interact: {scrapeIds}` picks), in step and URL order. */
  scrapes: Array<{ stepId: string; url: string; scrapeId: string }>;
}

/** One run with its steps and failed pages. */
export function showRun(db: string, ref: string | number | undefined): RunDetail {
  const store = openExistingRunStore(db);
  try {
    const id = resolveRunId(store, ref);
    const run = store.getRun(id)!;
    const steps = store.getSteps(id);
    const results: Record<string, ExtractResult> = {};
    for (const step of steps) {
      const result = store.stepResult(id, step.stepId);
      if (result !== undefined) results[step.stepId] = JSON.parse(result) as ExtractResult;
    }
    const warnings = store.warnings(id).map(({ stepId, url, message }) => ({ stepId, url, message }));
    const scrapes: RunDetail["scrapes"] = [];
    for (const step of steps.filter((s) => s.kind === "scrape")) {
      const pages = [...store.documents(id, step.stepId)].flatMap((d) => (typeof d.document.metadata.scrapeId === "string" ? [{ stepId: step.stepId, url: d.url, scrapeId: d.document.metadata.scrapeId }] : []));
      scrapes.push(...pages.sort((a, b) => a.url.localeCompare(b.url)));
    }
    return { run: summarize(run, steps), steps, failures: store.failures(id), results, warnings, scrapes };
  } finally {
    store.close();
  }
}
