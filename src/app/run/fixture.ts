import type { Engine, Pipeline } from "../../core/index.js";
import { ScrapelineError } from "../../core/index.js";
import type { ServiceSend } from "../../engines/firecrawl/index.js";
import type { EngineTaps, ExtractionSettings } from "../../engines/local/index.js";
import { closingWith, Recorder, Replayer } from "../../engines/replay/index.js";
import { extractionSettings } from "../common/index.js";

/** Where a run's traffic goes besides the web: recorded to a fixture, or answered from one (no network). */
export interface FixtureOptions {
  /** Keep every response the run used in this directory (--record). */
  record?: string;
  /** Answer every request from the fixture in this directory, never from the network (--replay). */
  replay?: string;
  /** A replay converts every page again rather than taking the documents recorded with them (scrapeline test). */
  convertAgain?: boolean;
}

/** What a recording or a replay changes in a run: the extraction's model, the engine's taps, and what closing the engine does. */
export interface FixtureTraffic {
  extraction: ExtractionSettings;
  taps: EngineTaps;
  /** The firecrawl engine's: its traffic with the service, and whether it needs no key (a replay). */
  service: { tap: (send: ServiceSend) => ServiceSend; offline: boolean };
  finish(engine: Engine): Engine;
}

/**
 * A replay on the local engine opens no socket, so what spares a site is lifted: the per-host
 * limit becomes the run's concurrency and a crawl waits no delay between pages (its own or
 * robots.txt's). Applied to the pipeline once the run's plan and hashes are made, so the run is
 * kept as the file says. Not on the firecrawl engine: the delay is part of the requests its
 * recorded answers are keyed by.
 */
export function replayPace(pipeline: Pipeline): void {
  pipeline.perHostConcurrency = pipeline.concurrency;
  for (const step of pipeline.steps) if (step.kind === "crawl") step.body.delay = 0;
}

/**
 * The traffic of a run with --record or --replay: the local engine's pages, model and searches,
 * or the firecrawl engine's answers from the service. A replay answers as the recorded model when
 * the environment names none, so an extraction with a model replays without a key.
 */
export function fixtureTraffic(options: FixtureOptions, pipeline: Pipeline, env: Readonly<Record<string, string | undefined>>): FixtureTraffic | undefined {
  if (options.record === undefined && options.replay === undefined) return undefined;
  if (options.record !== undefined && options.replay !== undefined) throw new ScrapelineError("invalid-input", "--record and --replay cannot be used together");
  if (options.replay !== undefined) {
    const replayer = new Replayer(options.replay, { convertAgain: options.convertAgain === true });
    const recorded = replayer.model;
    const { baseUrlEnv, modelEnv } = pipeline.llm;
    const withModel = recorded && !env[baseUrlEnv]?.trim() ? { ...env, [baseUrlEnv]: recorded.baseUrl, [modelEnv]: recorded.model } : env;
    const extraction = extractionSettings(pipeline, withModel);
    return { extraction: { ...extraction, modelTap: replayer.taps.model! }, taps: replayer.taps, service: { tap: replayer.serviceTap, offline: true }, finish: (engine) => closingWith(engine, async () => replayer.close()) };
  }
  const extraction = extractionSettings(pipeline, env);
  const recorder = new Recorder(options.record!, extraction.llm);
  return { extraction: { ...extraction, modelTap: recorder.taps.model! }, taps: recorder.taps, service: { tap: recorder.serviceTap, offline: false }, finish: (engine) => closingWith(engine, () => recorder.save()) };
}
