export { LocalEngine, type LocalEngineOptions } from "./engine.js";
export { createFetchGate, type FetchGate } from "./fetch/index.js";
