export { expandPipelinePaths } from "./files.js";
export { planFile, type PlanReport, type PlanView } from "./plan.js";
export { validatePipelines, type ValidateOptions, type ValidateReport } from "./validate.js";
export { schemaInfo } from "./schema.js";
export { renderDiagnostics, summarize, type DiagnosticFormat } from "../pipeline/index.js";
export { didYouMean } from "../pipeline/index.js";
