/** Running a pipeline file (on the local engine or a service), and the parse command. */
export { parseFiles } from "./parse.js";
export { DEFAULT_API_URL, previewCrawlRemote, serviceUsage, type UsageReport } from "./remote.js";
export { exitCodeOf, type RunFileOptions, type RunFileResult, runPipelineFile } from "./run.js";
