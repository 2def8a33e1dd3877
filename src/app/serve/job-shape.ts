import type { ChangeTrackingFormat, ErrorKind, Pipeline, ServeJobKind, Step, Team } from "../../core/index.js";
import { ScrapelineError } from "../../core/index.js";
import { LocalEngine, SERVE_LLM_HOWTO, type RiskClassifier } from "../../engines/local/index.js";
import { DEFAULT_LLM } from "../../pipeline/index.js";
import type { RunsStore } from "../../store/index.js";
import { extractionSettings } from "../common/index.js";
import { JOB_STEP_ID } from "./jobs.js";

/** The settings of serve (ServeOptions) that shape its engine and its jobs. */
interface ServeSettings {
  allowPrivateNetwork?: boolean;
  concurrency?: number;
  perHostConcurrency?: number;
  env?: Readonly<Record<string, string | undefined>>;
}

/** serve's engine: no pipeline, so its model is its own environment's, and its errors say so. */
export function serveEngine(options: ServeSettings, riskClassifier: RiskClassifier | undefined): LocalEngine {
  return new LocalEngine({
    allowPrivateNetwork: Boolean(options.allowPrivateNetwork),
    extraction: { ...extractionSettings({ extractor: "auto", llm: { ...DEFAULT_LLM } }, options.env ?? process.env), howTo: SERVE_LLM_HOWTO },
    ...(riskClassifier ? { riskClassifier } : {}),
    ...((options.env ?? process.env).SCRAPELINE_SEARXNG_URL ? { searxngUrl: (options.env ?? process.env).SCRAPELINE_SEARXNG_URL! } : {}),
  });
}

/** A job's one-step pipeline: per team and kind, so change tracking's previous crawl is the team's own. */
export function jobPipeline(options: ServeSettings, team: Team, kind: ServeJobKind, base: Pipeline, step: Step, maxConcurrency?: number): Pipeline {
  const concurrency = Math.min(maxConcurrency ?? options.concurrency ?? base.concurrency, options.concurrency ?? base.concurrency);
  return { ...base, file: "serve", name: `serve/team-${team.id}/${kind}`, engine: { kind: "local", browser: "auto" }, concurrency, perHostConcurrency: options.perHostConcurrency ?? Math.max(base.perHostConcurrency, Math.min(concurrency, 4)), allowPrivateNetwork: Boolean(options.allowPrivateNetwork), steps: [{ ...step, id: JOB_STEP_ID }] };
}

/** Why a scrape or map produced no document, as an error of its kind. */
export function failureOf(store: RunsStore, runId: number): ScrapelineError {
  const failure = store.failures(runId)[0];
  // The target's own 429 is a failed page here, not this server's rate limit.
  if (failure) return new ScrapelineError(failure.kind === "rate-limited" ? "http-status" : isKind(failure.kind) ? failure.kind : "internal", failure.error, { url: failure.url });
  const step = store.getSteps(runId)[0];
  return new ScrapelineError("network", step?.error ?? "the request produced no result");
}

/** Change-tracking histories are kept per team: the tag is scoped to the team. */
export function teamTag(format: ChangeTrackingFormat, team: Team): ChangeTrackingFormat {
  return { ...format, tag: `team-${team.id}${format.tag === null ? "" : `/${format.tag}`}` };
}

export { WEBHOOK_KIND } from "../common/index.js";

const KINDS = new Set<ErrorKind>(["invalid-input", "network", "timeout", "too-large", "blocked", "blocked-page", "http-status", "bad-content", "unsupported", "rate-limited", "budget", "cancelled", "internal", "unauthorized", "not-found", "not-recorded", "not-stored"]);
function isKind(kind: string): kind is ErrorKind {
  return KINDS.has(kind as ErrorKind);
}
