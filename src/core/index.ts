export * from "./diagnostic.js";
export * from "./errors.js";
export type * from "./types.js";
export type { PipelineFile } from "./generated/pipeline-file.js";
export type * from "./document.js";
export type * from "./engine.js";
export type * from "./store.js";
export type * from "./credits.js";
export { parseRetryAfter } from "./retry-after.js";
