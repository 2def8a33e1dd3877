export { LocalEngine, type LocalEngineOptions } from "./engine.js";
