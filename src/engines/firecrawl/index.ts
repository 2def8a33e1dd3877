export { FirecrawlEngine, type ServiceUsage } from "./engine.js";
export { RemoteCrawlJob, type CrawlStatusPage } from "./crawl-job.js";
export { checkBaseUrl, type ServiceAnswer, type ServiceConfig, type ServiceRequest, type ServiceSend } from "./http.js";
