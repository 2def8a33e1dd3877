/** One module for each kind of step the runner runs (and the helpers only one kind needs). */
export { runAgentStep } from "./agent-step.js";
export { runCrawlStep, type CrawlTally } from "./crawl-step.js";
export { runExtractStep } from "./extract-step.js";
export { runInteractStep } from "./interact-step.js";
export { runMapStep } from "./map-step.js";
export { runParseStep } from "./parse-step.js";
export { runRemoteCrawlStep } from "./remote-job.js";
export { runScrapeStep } from "./scrape-step.js";
export { runSearchStep } from "./search-step.js";
