export { dependenciesOf, planPipeline, type Plan, type PlannedStep } from "./plan.js";
