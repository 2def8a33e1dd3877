export { estimateStep, extractCredits, serviceCreditRules, TOKENS_PER_CREDIT } from "./rules.js";
