import { createHash } from "node:crypto";
import { hostname } from "node:os";
import type { Diagnostic, Engine, Pipeline, RunRecord, SessionVault } from "../../core/index.js";
import { ScrapelineError } from "../../core/index.js";
import { serviceCreditRules } from "../../credits/index.js";
import { LocalEngine } from "../../engines/local/index.js";
import { loadPipeline, loadPipelineText, redactInterpolations, sessionsOnEngine } from "../../pipeline/index.js";
import { planPipeline } from "../../planner/index.js";
import { runPlan, type EventSink, type RunResult } from "../../runner/index.js";
import { SECRET_KEY_ENV, SessionTable, SqliteStore, type RunsStore, type RunWarning } from "../../store/index.js";
import { StoreChangeTracker } from "../common/index.js";
import { applyModelCrawlPrompts } from "./crawl-prompts.js";
import { extractionSettings } from "../common/index.js";
import { createRemoteEngine } from "./remote.js";
import { notifyRun, type NotificationOutbox, type NotifyOutcome } from "../notify/index.js";
import { openExistingRunStore, openRunStore, RUN_WRITER_AFTER } from "../common/index.js";
import { isDatabaseUrl } from "../db-path.js";
import { runAgent } from "../../agent/index.js";
import { fixtureTraffic, replayPace, type FixtureOptions, type FixtureTraffic } from "./fixture.js";
import { expectationJudge } from "../../expect/index.js";
import { chooseFromRun, RunPageKeeper, runTaps, storedPages, withoutPageCache, type ChosenRun, type FromRunOptions } from "./from-run.js";
import type { EngineTaps } from "../../engines/local/index.js";

export interface RunFileOptions extends FixtureOptions, FromRunOptions {
  db: string;
  /** Extra variables for ${VAR} interpolation (--var K=V); they win over the environment. */
  vars?: Record<string, string>;
  /** Continue the latest unfinished run of this pipeline (true) or the run with this id. */
  resume?: boolean | number;
  allowPrivateNetwork?: boolean;
  concurrency?: number;
  onEvent?: EventSink;
  stop?: AbortSignal;
  abort?: AbortSignal;
  env?: Readonly<Record<string, string | undefined>>;
  /** Run on this engine instead of the one the pipeline names (--engine). */
  engineKind?: "local" | "firecrawl";
  /** For tests: replace the engine the pipeline names. */
  engine?: Engine;
  /** Pages saved before a writer thread takes over committing them (default RUN_WRITER_AFTER). */
  writerAfter?: number;
  /** The pipeline's text, when it is not read from `file` (a monitor made through serve); `file` names it in diagnostics. */
  text?: string;
  /** Where the run's notifications are recorded before they are sent (a monitor check's outbox). */
  notifyOutbox?: NotificationOutbox;
  /** The pipeline file and the flags that finish the run with --resume (secrets left out), kept with it. */
  resumeWords?: readonly string[];
  /** A store the caller keeps open (a watcher's PostgreSQL store, shared by its checks), used instead of opening `db`, and not closed. */
  store?: RunsStore;
  /** Told which run's stored pages a run with `fromRun` converts, before it starts. */
  onFromRun?: (chosen: ChosenRun) => void;
}

export type RunFileResult = { ok: false; diagnostics: Diagnostic[] } | ({ ok: true; pipeline: Pipeline; warnings: Diagnostic[]; notify?: NotifyOutcome } & RunResult);

/** Loads, plans and runs a pipeline file against the store. Invalid input throws ScrapelineError. */
export async function runPipelineFile(file: string, options: RunFileOptions): Promise<RunFileResult> {
  const env = { ...(options.env ?? process.env), ...(options.vars ?? {}) };
  const loaded = options.text !== undefined ? loadPipelineText(file, options.text, { env }) : await loadPipeline(file, { env });
  if (!loaded.pipeline) return { ok: false, diagnostics: loaded.diagnostics };
  const pipeline = loaded.pipeline;
  if (options.concurrency !== undefined) pipeline.concurrency = options.concurrency;
  const sessionProblem = options.engine ? undefined : sessionsOnEngine(pipeline, options.engineKind ?? pipeline.engine.kind);
  if (sessionProblem) throw new ScrapelineError("invalid-input", sessionProblem);
  const local = (options.engineKind ?? pipeline.engine.kind) === "local" && !options.engine;
  if (options.fromRun !== undefined) refuseFromRunMistakes(options, options.engineKind ?? pipeline.engine.kind);
  const traffic = options.engine ? undefined : fixtureTraffic(options, pipeline, env);
  if (local) await applyModelCrawlPrompts(pipeline, traffic?.extraction ?? extractionSettings(pipeline, env));
  const plan = planPipeline(pipeline);
  // The file's path is kept on the run itself; leaving it out lets runs from any checkout share the plan.
  const planJson = JSON.stringify({ ...redactInterpolations(pipeline, loaded.interpolations), file: undefined });
  // What a run fetches and stores; its pace and its budget may change between a stop and --resume.
  // Expectations judge what was stored without changing it, and where a step is written changes
  // nothing it fetches: a run resumes after either is edited.
  const pipelineHash = createHash("sha256").update(JSON.stringify({ ...JSON.parse(planJson), concurrency: undefined, perHostConcurrency: undefined, budget: undefined, keepPages: undefined }, withoutExpectations)).digest("hex");
  // Runs started before the budget and per-host concurrency were left out were hashed without only concurrency.
  const earlierHash = createHash("sha256").update(JSON.stringify({ ...JSON.parse(planJson), concurrency: undefined }, withoutExpectations)).digest("hex");
  if (options.replay !== undefined && local) replayPace(pipeline);

  const store = options.store ?? (options.fromRun !== undefined ? openExistingRunStore : openRunStore)(options.db, { writerAfter: options.writerAfter ?? RUN_WRITER_AFTER });
  let engine: Engine | undefined;
  try {
    const chosen = options.fromRun !== undefined ? chooseFromRun(store, pipeline, options.fromRun) : undefined;
    if (chosen) options.onFromRun?.(chosen);
    // Every run on the local engine keeps what its gate was answered, for a later --from-run.
    const pages = store.fetchedPages();
    const keeper = new RunPageKeeper(pipeline.keepPages === false ? undefined : pages);
    const from = chosen ? { source: storedPages(store, chosen.run.id), fetchMissing: Boolean(options.fetchMissing) } : undefined;
    engine = options.engine ?? createEngine(pipeline, options, traffic, local ? runTaps(keeper, traffic?.taps, from) : traffic?.taps);
    // A run made from stored pages finishes from the same run's pages.
    const resumeWords = options.resumeWords && chosen && !options.resumeWords.includes("--from-run") ? [...options.resumeWords, "--from-run", String(chosen.run.id), ...(options.fetchMissing ? ["--fetch-missing"] : [])] : options.resumeWords;
    const resume = options.resume === undefined || options.resume === false ? undefined : findResumable(store, pipeline, [pipelineHash, earlierHash], options.resume);
    if (resume && resume.fromRun !== chosen?.run.id) {
      throw new ScrapelineError("invalid-input", resume.fromRun !== undefined ? `run ${resume.id} was made from the pages run ${resume.fromRun} stored: finish it with --from-run ${resume.fromRun}` : `run ${resume.id} fetched its pages live: finish it without --from-run`);
    }
    let runId: number | undefined;
    const warnings: RunWarning[] = [];
    const told = new Set<string>();
    // A page's own warning (Document.warning) is told as it is stored, and kept with the run's,
    // unless the step told it already (a map step does).
    const onPageWarning = (stepId: string, url: string, message: string) => {
      if (told.has(`${stepId}\n${message}`)) return;
      warnings.push({ stepId, url, message, at: new Date().toISOString() });
      options.onEvent?.({ type: "step-warning", stepId, message: `${url}: ${message}` });
    };
    const onEvent: EventSink = (event) => {
      if (event.type === "run-started") {
        runId = event.runId;
        keeper.runId = event.runId;
        if (chosen) pages.markFromRun(event.runId, chosen.run.id);
      }
      if (event.type === "step-warning") {
        told.add(`${event.stepId}\n${event.message}`);
        warnings.push({ stepId: event.stepId, url: null, message: event.message, at: new Date().toISOString() });
      }
      options.onEvent?.(event);
      if (event.type === "document-stored" && event.warning) onPageWarning(event.stepId, event.url, event.warning);
    };
    // A process that ends while the run is still going (nothing left to wait for, process.exit)
    // leaves it interrupted, so that --resume finds it, never "running".
    const forget = closeOnExit(() => closeUnfinished(store, runId, "interrupted", "the process exited before the run finished"));
    let result: RunResult;
    try {
      result = await runPlan(
        { engine, store: chosen ? withoutPageCache(store) : store, credits: serviceCreditRules, changes: new StoreChangeTracker(store, pipeline.changeTracking), agent: runAgent, expectations: expectationJudge, ...(pipeline.sessions ? { sessions: sessionVault(store, env[SECRET_KEY_ENV]) } : {}) },
        { plan, planJson, pipelineHash, ...(resume ? { resume } : {}), ...(resumeWords ? { resumeWords } : {}), onEvent, ...(options.stop ? { stop: options.stop } : {}), ...(options.abort ? { abort: options.abort } : {}) },
      );
    } catch (error) {
      closeUnfinished(store, runId, "failed", `internal error: ${error instanceof Error ? error.message : String(error)}`);
      throw error;
    } finally {
      forget();
      if (runId !== undefined) keepWarnings(store, runId, warnings);
    }
    const notify = pipeline.notify ? await notifyRun(store, result.runId, pipeline.notify, { allowPrivateNetwork: Boolean(options.allowPrivateNetwork) || pipeline.allowPrivateNetwork, ...(options.notifyOutbox ? { outbox: options.notifyOutbox } : {}) }) : undefined;
    return { ok: true, pipeline, warnings: loaded.diagnostics, ...result, ...(notify ? { notify } : {}) };
  } finally {
    if (engine && !options.engine) await engine.close();
    if (!options.store) store.close();
  }
}

/** Where sessions keep their logins: a table of the store, sealed under the secret. */
function sessionVault(store: RunsStore, secret: string | undefined): SessionVault {
  return store instanceof SqliteStore ? new SessionTable(store.db, secret) : store.sessions(secret);
}

/** Stores the run's warnings for show; they were told as they came, so a store that fails here does not fail the run. */
function keepWarnings(store: RunsStore, runId: number, warnings: readonly RunWarning[]): void {
  try {
    store.addWarnings(runId, warnings);
  } catch {
    // The run's own record is already final.
  }
}

/** What ends each of this process's unfinished runs when it exits: one exit listener for them all (a watcher runs many runs at once). */
const closers = new Set<() => void>();

function closeOnExit(close: () => void): () => void {
  if (closers.size === 0) process.once("exit", closeAll);
  closers.add(close);
  return () => {
    closers.delete(close);
    if (closers.size === 0) process.off("exit", closeAll);
  };
}

function closeAll(): void {
  for (const close of closers) close();
}

/** Ends a run this process started and did not finish; a finished run is left as it is. */
function closeUnfinished(store: RunsStore, runId: number | undefined, status: "failed" | "interrupted", error: string): void {
  if (runId === undefined) return;
  try {
    if (store.getRun(runId)?.status === "running") store.finishRun(runId, status, error);
  } catch {
    // The database itself is what failed: the run's owner (a process that is gone) tells readers it stopped.
  }
}

/** `--from-run` with what makes no sense beside it, refused before any work. */
function refuseFromRunMistakes(options: RunFileOptions, engineKind: string): void {
  if (options.record !== undefined) throw new ScrapelineError("invalid-input", "--from-run and --record cannot be used together: record the live run instead (a run made from stored pages keeps them again all the same)");
  if (engineKind !== "local") throw new ScrapelineError("invalid-input", `--from-run converts stored pages on the local engine; this run uses ${engineKind}`);
}

function createEngine(pipeline: Pipeline, options: RunFileOptions, traffic: FixtureTraffic | undefined, taps: EngineTaps | undefined): Engine {
  const env = { ...(options.env ?? process.env), ...(options.vars ?? {}) };
  const kind = options.engineKind ?? pipeline.engine.kind;
  if (kind === "firecrawl") {
    const config: { apiKeyEnv: string; baseUrl?: string } = pipeline.engine.kind === "firecrawl" ? pipeline.engine : { apiKeyEnv: "FIRECRAWL_API_KEY" };
    const remote = createRemoteEngine({ apiKeyEnv: config.apiKeyEnv, ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}) }, env, traffic?.service);
    return traffic ? traffic.finish(remote) : remote;
  }
  const engine = new LocalEngine({
    allowPrivateNetwork: Boolean(options.allowPrivateNetwork) || pipeline.allowPrivateNetwork,
    extraction: traffic?.extraction ?? extractionSettings(pipeline, env),
    ...(pipeline.engine.kind === "local" ? { browser: pipeline.engine.browser } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(taps ? { taps } : {}),
  });
  return traffic ? traffic.finish(engine) : engine;
}

function findResumable(store: RunsStore, pipeline: Pipeline, hashes: readonly string[], resume: true | number): RunRecord {
  const run = resume === true ? store.latestUnfinishedRun(pipeline.name) : store.getRun(resume);
  if (!run) {
    throw new ScrapelineError("invalid-input", resume === true ? `nothing to resume: the latest run of pipeline "${pipeline.name}" succeeded, or it has none` : `no run ${resume} in this database`);
  }
  if (run.pipelineName !== pipeline.name) throw new ScrapelineError("invalid-input", `run ${run.id} belongs to pipeline "${run.pipelineName}", not "${pipeline.name}"`);
  if (run.status === "succeeded") throw new ScrapelineError("invalid-input", `run ${run.id} already finished successfully; nothing to resume`);
  // A run whose process is gone reads as interrupted; one still "running" here has a live process.
  if (run.status === "running" && run.owner?.host === hostname()) {
    throw new ScrapelineError("invalid-input", `run ${run.id} is still running (process ${run.owner.pid}); stop it first (Ctrl-C), then resume it`);
  }
  if (!hashes.includes(run.pipelineHash)) {
    throw new ScrapelineError("invalid-input", `the pipeline changed since run ${run.id} started; resuming would mix two versions. Start a new run instead.`);
  }
  return run;
}

const withoutExpectations = (key: string, value: unknown) => (key === "expect" || (key === "at" && typeof value === "object" && value !== null && "line" in value) ? undefined : value);

/** Exit codes of DESIGN.md §7 for a finished run; 4 when what failed was only broken expectations. */
export function exitCodeOf(status: RunResult["status"], cause?: RunResult["cause"]): number {
  switch (status) {
    case "succeeded":
      return 0;
    case "failed":
      return cause === "expectation" ? 4 : 1;
    case "budget-exhausted":
      return 3;
    case "interrupted":
      return 130;
    default:
      return 1;
  }
}
