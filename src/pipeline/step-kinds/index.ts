/** Checks and normal forms that belong to one kind of step or one block of a pipeline file. */
export { checkAgentSteps, normalizeAgentStep } from "./agent-step.js";
export { type PromptOptions, type PromptReading, readCrawlPrompt } from "./crawl-prompt.js";
export { checkExpectations, normalizeExpectations } from "./expectations.js";
export { checkInteractSteps } from "./interact-checks.js";
export { checkNotify, checkSchedule, normalizeNotify, normalizeSchedule } from "./monitoring.js";
export { checkParseSteps, normalizeParse, parseKeyProblem } from "./parse-step.js";
export { checkSearchSteps } from "./search-checks.js";
export { normalizeSearchStep } from "./search-normalize.js";
export { checkSessions, normalizeSessions, sessionsOnEngine, warnLiteralCredentials } from "./sessions.js";
