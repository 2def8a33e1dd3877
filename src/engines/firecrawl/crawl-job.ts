import type { Document, OnEngineWait } from "../../core/index.js";
import { ScrapelineError } from "../../core/index.js";
import type { ServiceHttp } from "./http.js";

/** GET /v2/crawl/{id} (API-NOTES.md §3.2). */
export interface CrawlStatusPage {
  success?: boolean;
  status: "scraping" | "completed" | "failed" | "cancelled";
  completed?: number;
  total?: number;
  creditsUsed?: number;
  expiresAt?: string;
  next?: string | null;
  data?: Document[];
  warning?: string;
  error?: string;
}

const TERMINAL = new Set(["completed", "failed", "cancelled"]);
const FIRST_POLL_MS = 500;
const MAX_POLL_MS = 5000;

/**
 * A crawl job on the service: its pages are read from the status endpoint in order, following
 * `next` pages, polling with backoff while the job runs. The end is the job's status, not the
 * absence of `next`. `skip` is how many pages were already taken (for --resume).
 */
export class RemoteCrawlJob {
  last: CrawlStatusPage | undefined;

  /** `kind`: a crawl (/v2/crawl, cancelled at /v1/crawl) or a batch scrape (/v2/batch/scrape); both report pages the same way. */
  /** `onWait` is told of the long waits between retries of a status request (a 429's Retry-After). */
  constructor(
    private readonly http: ServiceHttp,
    readonly id: string,
    private readonly kind: "crawl" | "batch" = "crawl",
    private readonly onWait?: OnEngineWait,
  ) {}

  private get statusPath(): string {
    return `${this.kind === "crawl" ? "/v2/crawl" : "/v2/batch/scrape"}/${encodeURIComponent(this.id)}`;
  }

  async *pages(skip: number, signal?: AbortSignal): AsyncGenerator<Document> {
    let taken = skip;
    let wait = FIRST_POLL_MS;
    let url = `${this.statusPath}${taken > 0 ? `?skip=${taken}` : ""}`;
    for (;;) {
      if (signal?.aborted) return;
      const page = await this.http.call<CrawlStatusPage>("GET", url, { what: `the status of ${this.kind} job ${this.id}`, attempts: 5, ...(signal ? { signal } : {}), ...(this.onWait ? { onWait: this.onWait } : {}) });
      if (typeof page.status !== "string") throw new ScrapelineError("bad-content", `the status of ${this.kind} job ${this.id} has no status field`);
      this.last = page;
      const data = Array.isArray(page.data) ? page.data : [];
      for (const document of data) yield document;
      taken += data.length;
      if (page.next) {
        url = page.next; // checked against the service's origin before anything is sent
        wait = FIRST_POLL_MS;
        continue;
      }
      if (TERMINAL.has(page.status)) {
        if (page.status === "failed") throw new ScrapelineError("http-status", `the service's ${this.kind} job ${this.id} failed${page.error ? `: ${page.error}` : ""}`);
        return;
      }
      url = `${this.statusPath}?skip=${taken}`;
      if (data.length > 0) wait = FIRST_POLL_MS;
      await this.http.sleep(wait, signal).catch(() => undefined);
      wait = Math.min(MAX_POLL_MS, Math.round(wait * 1.5));
    }
  }

  /** DELETE /v1/crawl/{id} (or /v2/batch/scrape/{id}); true when the service confirms `{status: cancelled}`. */
  async cancel(): Promise<boolean> {
    const path = this.kind === "crawl" ? `/v1/crawl/${encodeURIComponent(this.id)}` : this.statusPath;
    const answer = await this.http.call<{ status?: string }>("DELETE", path, { what: `cancelling ${this.kind} job ${this.id}`, attempts: 3 });
    return answer.status === "cancelled";
  }
}
