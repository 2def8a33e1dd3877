/**
 * Record and replay (DESIGN.md §11): the local engine with its traffic recorded to a fixture
 * directory, or answered from one without a socket. Nothing above the engine port knows which runs.
 */
import type { Engine } from "../../core/index.js";

export { sortedJson, sortKeys, type FixtureIndex } from "./fixture-files.js";
export { JOURNAL_FILE, readIndex } from "./fixture-index.js";

export { Recorder } from "./recorder.js";
export { Replayer } from "./replayer.js";

/** The engine, with `after` run once it has closed (whether or not closing failed): a recording's index is written then. */
export function closingWith(engine: Engine, after: () => Promise<void>): Engine {
  const wrapped = Object.create(engine) as Engine & { close(): Promise<void> };
  wrapped.close = async () => {
    try {
      await engine.close();
    } finally {
      await after();
    }
  };
  return wrapped;
}
export { keepingBrowser, keepingGate, keptHeaders, storedPagesTaps, type FetchedPageSink, type FetchedPageSource, type KeptAnswer, type KeptFailure, type KeptResponse } from "./stored-pages.js";
export { safeUrl } from "./request-keys.js";
