import type { CrawlFrontierPort, CrawlRequest, Document, DocumentMetadata, Engine, EngineSettings, MapRequest, MapResult, ScrapeOptions } from "../../core/index.js";
import { parseRetryAfter, ScrapelineError } from "../../core/index.js";
import { contentKind } from "./content.js";
import { mapSite } from "./crawl/index.js";
import { openCrawl } from "./crawl-port.js";
import { createFetchGate, decodeText, requestHeaders, type FetchGate, type FetchPolicy } from "./fetch/index.js";
import { processHtml } from "./html/index.js";
import { isPdf, pdfToBase64, pdfToMarkdown } from "./pdf/index.js";
import { checkThreatProtection, type RiskClassifier } from "./threat-protection.js";
import { assertSupported } from "./unsupported.js";

/** Statuses the runner retries; the engine reports them as errors rather than as documents. */
const RETRY_STATUSES = new Set([408, 425, 429]);

export interface LocalEngineOptions extends EngineSettings {
  /** For tests: DNS answers and address ranges treated as public. */
  resolve?: FetchPolicy["resolve"];
  treatAsPublic?: string[];
  /** The web-risk classifier of threat protection's mode normal (none: failurePolicy decides). */
  riskClassifier?: RiskClassifier;
}

/** The embedded engine: fetches pages itself and converts them like the service does. */
export class LocalEngine implements Engine {
  readonly name = "local";
  private readonly gate: FetchGate;
  private readonly riskClassifier: RiskClassifier | undefined;

  constructor(options: LocalEngineOptions) {
    this.riskClassifier = options.riskClassifier;
    const policy: FetchPolicy = { allowPrivateNetwork: options.allowPrivateNetwork };
    if (options.resolve) policy.resolve = options.resolve;
    if (options.treatAsPublic) policy.treatAsPublic = options.treatAsPublic;
    this.gate = createFetchGate(policy);
  }

  async scrape(url: string, options: ScrapeOptions, signal?: AbortSignal): Promise<Document> {
    assertSupported(options, url);
    checkThreatProtection(url, options.threatProtection, this.riskClassifier);
    const response = await this.gate.fetch({
      url,
      headers: requestHeaders({ mobile: options.mobile, location: options.location, ...(options.headers ? { headers: options.headers } : {}) }),
      timeoutMs: options.timeout,
      skipTlsVerification: options.skipTlsVerification,
      ...(signal ? { signal } : {}),
    });
    const status = response.status;
    if (RETRY_STATUSES.has(status) || status >= 500) {
      const retryAfterMs = parseRetryAfter(response.headers["retry-after"]);
      throw new ScrapelineError(status === 429 ? "rate-limited" : "http-status", `HTTP ${status} from ${response.url}`, { url, status, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) });
    }
    const contentType = response.headers["content-type"];
    const metadata: DocumentMetadata = { sourceURL: url, url: response.url, statusCode: status, proxyUsed: "basic" };
    if (contentType) metadata.contentType = contentType;
    const want = new Set(options.formats.map((f) => f.type));
    const document: Document = { metadata };
    const kind = contentKind(contentType, response.body);

    if (kind === "pdf" || isPdf(response.body, contentType)) {
      if (options.parsers.length === 0) {
        if (want.has("markdown")) document.markdown = pdfToBase64(response.body);
        return document;
      }
      const maxPages = options.parsers[0]?.maxPages;
      const pdf = await pdfToMarkdown(response.body, { ...(maxPages ? { maxPages } : {}), ...(signal ? { signal } : {}) });
      Object.assign(metadata, withoutEmpty(pdf.metadata), { numPages: pdf.numPages });
      if (want.has("markdown")) document.markdown = pdf.markdown;
      return document;
    }
    if (kind === "binary") {
      throw new ScrapelineError("bad-content", `${response.url} is not a page: ${contentType ?? "no content type"} with binary content`, { url });
    }
    const text = decodeText(response.body, contentType);
    if (want.has("rawHtml")) document.rawHtml = text;
    if (kind === "json" || kind === "text") {
      if (want.has("markdown")) document.markdown = kind === "json" ? `\`\`\`json\n${text}\n\`\`\`\n` : text;
      if (want.has("html")) document.html = text;
      if (want.has("links")) document.links = [];
      if (want.has("images")) document.images = [];
      return document;
    }
    const html = processHtml(text, {
      url: response.url,
      onlyMainContent: options.onlyMainContent,
      ...(options.includeTags ? { includeTags: options.includeTags } : {}),
      ...(options.excludeTags ? { excludeTags: options.excludeTags } : {}),
      removeBase64Images: options.removeBase64Images,
      blockAds: options.blockAds,
      want: { markdown: want.has("markdown"), html: want.has("html"), links: want.has("links"), images: want.has("images") },
    });
    Object.assign(metadata, html.metadata, { sourceURL: url, url: response.url, statusCode: status });
    if (html.markdown !== undefined) document.markdown = html.markdown;
    if (html.html !== undefined) document.html = html.html;
    if (html.links !== undefined) document.links = html.links;
    if (html.images !== undefined) document.images = html.images;
    return document;
  }

  startCrawl(request: CrawlRequest, options: { signal?: AbortSignal; restore?: unknown }): Promise<CrawlFrontierPort> {
    return openCrawl(this.gate, request, options);
  }

  map(request: MapRequest, signal?: AbortSignal): Promise<MapResult> {
    return mapSite(this.gate, request, signal ? { signal } : {});
  }

  async close(): Promise<void> {
    await this.gate.close();
  }
}

function withoutEmpty(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined && v !== ""));
}
