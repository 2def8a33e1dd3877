/** The service's use cases behind `scrapeline serve`: requests, jobs, limits, usage, keys, browser sessions, monitors, webhooks and the v1 API. */
export { type JobStatusPage, PAGE_BYTES, PAGE_DOCUMENTS } from "./job-status.js";
export { createKey, listKeys, listTeams, revokeKey, setThreatPolicy, TEAM_DEFAULTS, type TeamSettings, updateTeam } from "./keys.js";
export { MAX_UPLOAD_BYTES, type Upload } from "./parse.js";
export { ServeService } from "./service.js";
export type { ServeOptions } from "./options.js";
export type { CreditUsage, TokenUsage, UsagePeriod } from "./usage.js";
export { creditUsageV1, jobStatusV1, mapV1, scrapeV1, searchV1, startBatchV1, startCrawlV1, startExtractV1, V1_RETIRED, v1StatusPage, type V2Service } from "./v1.js";
