export { loadPipeline, loadPipelineBytes, loadPipelineText, type LoadOptions, type LoadResult } from "./load.js";
export { renderDiagnostics, renderLong, renderShort, summarize, type DiagnosticFormat } from "./render.js";
export { pipelineSchemaPath, SCHEMAS_DIR } from "./schema.js";
export type { Interpolation } from "./interpolate.js";
export { redactInterpolations } from "./redact.js";
export { didYouMean } from "./suggest.js";
export { readCrawlPrompt, type PromptOptions, type PromptReading } from "./crawl-prompt.js";
export { DEFAULT_CRAWL, DEFAULT_LLM, DEFAULT_PIPELINE, V1_SCRAPE_OPTION_DEFAULTS } from "./defaults.js";
export { readRequestBody, type RequestKind, type RequestReading } from "./request.js";
