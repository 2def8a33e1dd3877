export * from "./diagnostic.js";
export * from "./errors.js";
export type * from "./types.js";
export type { PipelineFile } from "./generated/pipeline-file.js";
