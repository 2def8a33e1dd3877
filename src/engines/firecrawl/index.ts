export { FirecrawlEngine, type ServiceUsage } from "./engine.js";
export { RemoteCrawlJob, type CrawlStatusPage } from "./crawl-job.js";
export { checkBaseUrl, type ServiceConfig } from "./http.js";
