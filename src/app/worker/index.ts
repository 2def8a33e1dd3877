/** `scrapeline worker`: processes that take pages of serve's running crawls and batch scrapes from the frontier they share in PostgreSQL. */
export { CrawlWorker, type CrawlWorkerOptions, type SharedJobKind, type WorkerEvent } from "./crawl-worker.js";
export { runWorker, type WorkerOptions } from "./worker.js";
