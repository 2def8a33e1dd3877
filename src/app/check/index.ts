/** What a pipeline file would do, before any work: validate, plan, the readiness warnings, the schema's facts and a crawl's preview. */
export { type CrawlPreview, MAX_PROMPT_LENGTH, previewCrawlParams, previewCrawlParamsLocally } from "./crawl-preview.js";
export { planFile, type PlanReport, type PlanView } from "./plan.js";
export { schemaInfo } from "./schema.js";
export { type ValidateOptions, validatePipelines, type ValidateReport } from "./validate.js";
