import { randomUUID } from "node:crypto";
import type { AgentRequest, AgentResult, CrawlRequest, Document, Engine, ExtractRequest, ExtractResult, MapRequest, MapResult, OnEngineWait, ParseInput, ParseOptions, ScrapeOptions, SearchAnswer, SearchRequest } from "../../core/index.js";
import { ScrapelineError } from "../../core/index.js";
import { RemoteCrawlJob } from "./crawl-job.js";
import { ServiceHttp, type ServiceConfig } from "./http.js";
import { parseOnService } from "./parse.js";
import { readUsage, type ServiceUsage } from "./usage.js";
import { searchService } from "./search.js";
import { agentService } from "./agent.js";

export type { ServiceUsage };

/** 1 credit is worth 15 tokens (SPEC.md Limits). */
const TOKENS_PER_CREDIT = 15;
const FIRST_POLL_MS = 500;
const MAX_POLL_MS = 5000;

/**
 * The remote engine: the service of SPEC.md over HTTP (the hosted one or a self-hosted cluster).
 * It tracks changes and bills credits itself; its answers are stored as they come.
 */
export class FirecrawlEngine implements Engine {
  readonly name = "firecrawl";
  readonly tracksChanges = true;
  readonly searchesWeb = true;
  readonly reportsCredits = true;
  private readonly http: ServiceHttp;

  constructor(config: ServiceConfig) {
    this.http = new ServiceHttp(config);
  }

  async scrape(url: string, options: ScrapeOptions, signal?: AbortSignal): Promise<Document> {
    // A step's body may still carry its `urls`; the service takes one url.
    const { urls: _urls, ...scrapeOptions } = options as ScrapeOptions & { urls?: unknown };
    const answer = await this.http.call<{ success?: boolean; data?: Document; error?: string; code?: string }>("POST", "/v2/scrape", { body: { url, ...scrapeOptions }, what: `the scrape of ${url}`, ...(signal ? { signal } : {}) });
    if (answer.success === false || !answer.data) {
      const dns = answer.code === "SCRAPE_DNS_RESOLUTION_ERROR";
      throw new ScrapelineError(dns ? "http-status" : "bad-content", `the service could not scrape ${url}${answer.error ? `: ${answer.error}` : ""}${dns ? " (the name does not resolve)" : ""}`, { url, status: 200 });
    }
    return answer.data;
  }

  async map(request: MapRequest, signal?: AbortSignal): Promise<MapResult> {
    const answer = await this.http.call<{ links?: Array<{ url: string; title?: string; description?: string } | string>; warning?: string }>("POST", "/v2/map", { body: request, what: `the map of ${request.url}`, attempts: 3, ...(signal ? { signal } : {}) });
    const links = (answer.links ?? []).map((l) => (typeof l === "string" ? { url: l } : l));
    return { links, ...(answer.warning ? { warning: answer.warning } : {}) };
  }

  /** Starts a crawl job (or takes up `jobId` again after an interruption). The start is sent with an idempotency key, so a retry cannot start two. */
  /** `onWait` is told of each wait longer than 2 s between attempts, while starting and while reading the job. */
  async startCrawlJob(request: CrawlRequest, options: { signal?: AbortSignal; jobId?: string; onWait?: OnEngineWait }): Promise<RemoteCrawlJob> {
    if (options.jobId) return new RemoteCrawlJob(this.http, options.jobId, "crawl", options.onWait);
    const answer = await this.http.call<{ id?: string }>("POST", "/v2/crawl", { body: request, what: `starting a crawl of ${request.url}`, attempts: 4, idempotencyKey: randomUUID(), ...(options.signal ? { signal: options.signal } : {}), ...(options.onWait ? { onWait: options.onWait } : {}) });
    if (!answer.id) throw new ScrapelineError("bad-content", `the service started a crawl of ${request.url} without giving its id`);
    return new RemoteCrawlJob(this.http, answer.id, "crawl", options.onWait);
  }

  /** A batch scrape job: the step's URLs scraped by the service with one set of options (started once, with an idempotency key). */
  async startBatchJob(urls: string[], options: ScrapeOptions, control: { signal?: AbortSignal; jobId?: string; onWait?: OnEngineWait }): Promise<RemoteCrawlJob> {
    if (control.jobId) return new RemoteCrawlJob(this.http, control.jobId, "batch", control.onWait);
    const answer = await this.http.call<{ id?: string }>("POST", "/v2/batch/scrape", { body: { urls, ...options }, what: `starting a batch scrape of ${urls.length} URL(s)`, attempts: 4, idempotencyKey: randomUUID(), ...(control.signal ? { signal: control.signal } : {}), ...(control.onWait ? { onWait: control.onWait } : {}) });
    if (!answer.id) throw new ScrapelineError("bad-content", "the service started a batch scrape without giving its id");
    return new RemoteCrawlJob(this.http, answer.id, "batch", control.onWait);
  }

  /**
   * An extract job: POST /v2/extract with the request as SPEC.md gives it (its scrape options are
   * in v2 form once the pipeline is loaded), then its status until it ends.
   */
  async extractJob(request: ExtractRequest, urls: string[], signal?: AbortSignal): Promise<ExtractResult> {
    const { limit: _limit, urls: _urls, ...rest } = request;
    const start = await this.http.call<{ id?: string; invalidURLs?: string[] }>("POST", "/v2/extract", { body: { urls, ...rest }, what: "starting an extract", attempts: 4, idempotencyKey: randomUUID(), ...(signal ? { signal } : {}) });
    if (!start.id) throw new ScrapelineError("bad-content", "the service started an extract without giving its id");
    let wait = FIRST_POLL_MS;
    for (;;) {
      const status = await this.http.call<{ success?: boolean; status?: string; data?: unknown; sources?: Record<string, string[]>; tokensUsed?: number; creditsUsed?: number; error?: string; warning?: string }>(
        "GET",
        `/v2/extract/${encodeURIComponent(start.id)}`,
        { what: `the status of extract job ${start.id}`, attempts: 5, ...(signal ? { signal } : {}) },
      );
      if (status.status === "completed" || status.status === "failed" || status.status === "cancelled") {
        const tokensUsed = status.tokensUsed ?? 0;
        const creditsUsed = status.creditsUsed ?? Math.ceil(tokensUsed / TOKENS_PER_CREDIT);
        return {
          success: status.status === "completed",
          status: status.status,
          data: status.data ?? {},
          ...(status.sources ? { sources: status.sources } : {}),
          ...(request.ignoreInvalidURLs ? { invalidURLs: start.invalidURLs ?? [] } : {}),
          tokensUsed,
          creditsUsed,
          ...(status.error ? { error: status.error } : {}),
          ...(status.warning ? { warning: status.warning } : {}),
        };
      }
      await this.http.sleep(wait, signal);
      wait = Math.min(MAX_POLL_MS, Math.round(wait * 1.5));
    }
  }

  /** POST /v2/crawl/params-preview: the options the service derives from a prompt. */
  async previewCrawl(url: string, prompt: string, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const answer = await this.http.call<{ data?: Record<string, unknown> }>("POST", "/v2/crawl/params-preview", { body: { url, prompt }, what: "the crawl params preview", attempts: 3, ...(signal ? { signal } : {}) });
    return answer.data ?? {};
  }

  /** POST /v2/parse: the file uploaded (multipart), its answer stored like a local parse's (src/engines/firecrawl/parse.ts). */
  parse(file: ParseInput, options: ParseOptions, signal?: AbortSignal): Promise<Document> {
    return parseOnService(this.http, file, options, signal);
  }

  usage(signal?: AbortSignal): Promise<ServiceUsage> {
    return readUsage(this.http, signal);
  }

  /** POST /v2/search: results 1:1, results the service scraped as Documents, credits as it billed them. */
  search(request: SearchRequest, options: { signal?: AbortSignal; onWait?: OnEngineWait } = {}): Promise<SearchAnswer> {
    return searchService(this.http, request, options);
  }

  /** POST /v2/agent, polled until it ends; cancelled on the service when the step stops. */
  agentJob(request: AgentRequest, options: { signal?: AbortSignal; onWait?: OnEngineWait } = {}): Promise<AgentResult> {
    return agentService(this.http, request, options);
  }

  async close(): Promise<void> {}
}
