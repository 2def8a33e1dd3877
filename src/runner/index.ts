export type { EventSink, RunEvent } from "./events.js";
export { runPlan, type RunnerPorts, type RunOptions, type RunResult } from "./run.js";
export { MAX_RATE_LIMIT_WAIT_MS } from "./page.js";
export { backoffMs, classify } from "./retry.js";
export { globToRegExp, matchesGlob, selectUrls } from "./url-source.js";
export { WorkPool } from "./pool.js";
export { joinBatch, joinCrawl, type JoinOptions } from "./join.js";
