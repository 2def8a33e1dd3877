import type { Engine, Pipeline } from "../../core/index.js";
import { ScrapelineError } from "../../core/index.js";
import type { EngineTaps, ExtractionSettings } from "../../engines/local/index.js";
import { closingWith, Recorder, Replayer } from "../../engines/replay/index.js";
import { extractionSettings } from "../shared/index.js";

/** Where a run's traffic goes besides the web: recorded to a fixture, or answered from one (no network). */
export interface FixtureOptions {
  /** Keep every response the run used in this directory (--record). */
  record?: string;
  /** Answer every request from the fixture in this directory, never from the network (--replay). */
  replay?: string;
}

/** What a recording or a replay changes in a run: the extraction's model, the engine's taps, and what closing the engine does. */
export interface FixtureTraffic {
  extraction: ExtractionSettings;
  taps: EngineTaps;
  finish(engine: Engine): Engine;
}

/**
 * The traffic of a run with --record or --replay (the local engine only). A replay answers as the
 * recorded model when the environment names none, so an extraction with a model replays without a key.
 */
export function fixtureTraffic(options: FixtureOptions, pipeline: Pipeline, engineKind: string, env: Readonly<Record<string, string | undefined>>): FixtureTraffic | undefined {
  if (options.record === undefined && options.replay === undefined) return undefined;
  if (options.record !== undefined && options.replay !== undefined) throw new ScrapelineError("invalid-input", "--record and --replay cannot be used together");
  if (engineKind !== "local") throw new ScrapelineError("invalid-input", `--record and --replay work with the local engine; this run uses ${engineKind}`);
  if (options.replay !== undefined) {
    const replayer = new Replayer(options.replay);
    const recorded = replayer.model;
    const { baseUrlEnv, modelEnv } = pipeline.llm;
    const withModel = recorded && !env[baseUrlEnv]?.trim() ? { ...env, [baseUrlEnv]: recorded.baseUrl, [modelEnv]: recorded.model } : env;
    const extraction = extractionSettings(pipeline, withModel);
    return { extraction: { ...extraction, modelTap: replayer.taps.model! }, taps: replayer.taps, finish: (engine) => engine };
  }
  const extraction = extractionSettings(pipeline, env);
  const recorder = new Recorder(options.record!, extraction.llm);
  return { extraction: { ...extraction, modelTap: recorder.taps.model! }, taps: recorder.taps, finish: (engine) => closingWith(engine, () => recorder.save()) };
}
