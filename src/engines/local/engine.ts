import type { AgentModel, ExtractionPage, ExtractionSpec, PageExtraction, CrawlFrontierPort, CrawlRequest, DiscoveryWatch, Document, DocumentMetadata, Engine, EngineSettings, MapRequest, MapResult, ParseInput, ParseOptions, ScrapeExtras, ScrapeOptions, SearchAnswer, SearchRequest, SessionHandle, SessionSpec, SessionState, LivePage, LivePageStart, KeptPage } from "../../core/index.js";
import { isScrapelineError, parseRetryAfter, ScrapelineError } from "../../core/index.js";
import { contentKind } from "./content.js";
import { mapSite } from "./crawl/index.js";
import { openCrawl } from "./crawl-port.js";
import { BrowserHost, loadPage, loginInBrowser, OpenPageWork, openLivePage, usesBrowser, type BrowserMode, type BrowserPage } from "./browser/index.js";
import { BlockedPageError, gateWithProxy, ProxyRoutes, proxyModeOf, proxySettingsFrom, type ProxyRoute, createAddressPolicy, createFetchGate, decodeText, detectBlockPage, gateWithSession, parseHttpUrl, requestHeaders, resolveTarget, sessionJar, systemResolve, type AnsweredPage, type FetchGate, type FetchPolicy } from "./fetch/index.js";
import { processHtml } from "./html/index.js";
import { isPdf, pdfToBase64, pdfToMarkdown } from "./pdf/index.js";
import { Extractor, type CombinedExtraction, type ExtractionSettings } from "./extract/index.js";
import { applyExtraction, wantsExtraction } from "./extract-formats.js";
import { checkThreatProtection, type RiskClassifier } from "./threat-protection.js";
import { assertSupported } from "./unsupported.js";
import { searchSearxng, SEARXNG_VARIABLE } from "./search/index.js";
import { pageShows } from "./session-check.js";
import { gateWithWatch } from "./discovery-watch.js";
import type { EngineTaps, SearchSend } from "./taps.js";

/** Statuses the runner retries; the engine reports them as errors rather than as documents. */
const RETRY_STATUSES = new Set([408, 425, 429]);

export interface LocalEngineOptions extends EngineSettings {
  /** For tests: DNS answers and address ranges treated as public. */
  resolve?: FetchPolicy["resolve"];
  treatAsPublic?: string[];
  /** How json and summary formats and extract steps are produced (default: deterministic, no model). */
  extraction?: ExtractionSettings;
  /** When scrapes use Chromium: when they need it (default), always, or never. */
  browser?: BrowserMode;
  /** Browser pages open at once (default 2). */
  browserConcurrency?: number;
  /** Where SCRAPELINE_CHROMIUM is read (default process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  /** The web-risk classifier of threat protection's mode normal (none: failurePolicy decides). */
  riskClassifier?: RiskClassifier;
  /** The SearXNG instance of search steps (default: SCRAPELINE_SEARXNG_URL of `env`). */
  searxngUrl?: string;
  /** Traffic taken over by a recording or a replay (src/engines/replay). */
  taps?: EngineTaps;
}

/** The embedded engine: fetches pages itself and converts them like the service does. */
export class LocalEngine implements Engine {
  readonly name = "local";
  private readonly gate: FetchGate;
  private readonly extractor: Extractor;
  private readonly browserMode: BrowserMode;
  private readonly browser: BrowserHost;
  private readonly riskClassifier: RiskClassifier | undefined;
  private readonly requestHeaders = new WeakMap<ScrapeOptions, Record<string, string>>();
  /** The operator's SearXNG (SCRAPELINE_SEARXNG_URL), read when the engine is made. */
  private readonly searxngUrl: string | undefined;
  /** The operator's proxies (SCRAPELINE_PROXY, SCRAPELINE_ENHANCED_PROXY, SCRAPELINE_PROXY_<CC>). */
  private readonly proxies: ProxyRoutes;
  private readonly searchSend: SearchSend;
  private readonly taps: EngineTaps;

  constructor(options: LocalEngineOptions) {
    this.proxies = new ProxyRoutes(proxySettingsFrom(options.env ?? process.env));
    this.taps = options.taps ?? {};
    const extraction = options.extraction ?? { mode: "auto" };
    this.extractor = new Extractor(this.taps.model ? { ...extraction, modelTap: this.taps.model } : extraction);
    this.riskClassifier = options.riskClassifier;
    const policy: FetchPolicy = { allowPrivateNetwork: options.allowPrivateNetwork };
    if (options.resolve) policy.resolve = options.resolve;
    if (options.treatAsPublic) policy.treatAsPublic = options.treatAsPublic;
    this.gate = this.taps.gate ? this.taps.gate(createFetchGate(policy)) : createFetchGate(policy);
    this.browserMode = options.browser ?? "auto";
    this.searxngUrl = (options.searxngUrl ?? (options.env ?? process.env)[SEARXNG_VARIABLE])?.trim() || undefined;
    const search: SearchSend = (request, signal) => searchSearxng(this.searxngUrl, request, signal);
    this.searchSend = this.taps.search ? this.taps.search(search) : search;
    // The browser's requests meet the same policy as the gate's, through its proxy.
    const addresses = createAddressPolicy(options.treatAsPublic);
    const resolve = options.resolve ?? systemResolve;
    const offline = this.taps.browser?.offline === true;
    this.browser = new BrowserHost({
      // A replay's browser reaches nothing: what its routes let through is refused here.
      check: offline ? refuseOffline : (target, signal) => resolveTarget(target, { policy: addresses, allowPrivateNetwork: options.allowPrivateNetwork, resolve, signal }),
      ...(options.browserConcurrency !== undefined ? { concurrency: options.browserConcurrency } : {}),
      ...(options.env ? { env: options.env } : {}),
    });
  }

  /** The request headers of a page, made once per options object (a crawl's pages share theirs). */
  private headersFor(options: ScrapeOptions): Record<string, string> {
    let headers = this.requestHeaders.get(options);
    if (headers === undefined) {
      headers = requestHeaders({ mobile: options.mobile, location: options.location, ...(options.headers ? { headers: options.headers } : {}) });
      this.requestHeaders.set(options, headers);
    }
    return headers;
  }

  /**
   * A page through the route its `proxy` asks for. `auto` goes the basic way first and, when the
   * site answers a block page, 403 or 429 and an enhanced proxy is configured, once more through it.
   */
  async scrape(url: string, options: ScrapeOptions, signal?: AbortSignal, extras: ScrapeExtras = {}): Promise<Document> {
    assertSupported(options, url, this.browserMode !== "never");
    checkThreatProtection(url, options.threatProtection, this.riskClassifier);
    const country = options.location.country;
    const enhanced = () => this.proxies.enhanced(country, hostOf(url), extras.session !== undefined);
    const mode = proxyModeOf(options.proxy);
    if (mode !== "auto") return this.scrapeVia(url, options, signal, extras, mode === "enhanced" ? enhanced() : this.proxies.basic(country));
    if (!this.proxies.hasEnhanced) return this.scrapeVia(url, options, signal, extras, this.proxies.basic(country));
    try {
      return await this.scrapeVia(url, options, signal, extras, this.proxies.basic(country), true);
    } catch (error) {
      if (!refusedTheBasicWay(error)) throw error;
    }
    return this.scrapeVia(url, options, signal, extras, enhanced());
  }

  private async scrapeVia(url: string, options: ScrapeOptions, signal: AbortSignal | undefined, extras: ScrapeExtras, route: ProxyRoute, refuse403 = false): Promise<Document> {
    const document = await this.scrapeRouted(url, options, signal, extras, route, refuse403);
    document.metadata.proxyUsed = route.used;
    if (route.warning) document.warning = document.warning ? `${document.warning}; ${route.warning}` : route.warning;
    return document;
  }

  private async scrapeRouted(url: string, options: ScrapeOptions, signal: AbortSignal | undefined, extras: ScrapeExtras, route: ProxyRoute, refuse403: boolean): Promise<Document> {
    if (usesBrowser(options, this.browserMode) || (extras.inBrowser && this.browserMode !== "never")) {
      const stored = extras.keepOpen ? undefined : this.taps.storedBrowserPage?.(url);
      if (stored) return this.fromBrowserPage(url, { ...stored, blocked: [] }, options, extras, signal, refuse403);
      if (this.taps.refuseBrowser && !this.taps.browser) throw this.taps.refuseBrowser(url);
      return this.scrapeInBrowser(url, options, signal, extras, route, refuse403);
    }
    // A document of a recording is given back for the same page and settings (nothing about the run's session or deadline in it).
    const memo = this.taps.documents && !extras.session && !extras.expiredWhen && !wantsExtraction(options) ? this.taps.documents : undefined;
    const settings = { options, pageLinks: extras.pageLinks === true };
    const recorded = await memo?.find(url, settings, signal);
    if (recorded) return recorded;
    const document = await this.scrapeOverHttp(url, options, signal, extras, route, refuse403);
    memo?.keep(url, settings, document);
    return document;
  }

  private async scrapeOverHttp(url: string, options: ScrapeOptions, signal: AbortSignal | undefined, extras: ScrapeExtras, route: ProxyRoute, refuse403: boolean): Promise<Document> {
    const response = await this.gate.fetch({
      ...(route.proxy ? { proxy: route.proxy } : {}),
      url,
      headers: this.headersFor(options),
      timeoutMs: options.timeout,
      skipTlsVerification: options.skipTlsVerification,
      ...(signal ? { signal } : {}),
      ...(extras.session ? { cookies: sessionJar(extras.session) } : {}),
    });
    const status = response.status;
    const contentType = response.headers["content-type"];
    const kind = contentKind(contentType, response.body);
    const text = kind === "html" || kind === "text" || kind === "json" ? decodeText(response.body, contentType) : "";
    if (kind === "html" || kind === "text") assertNotBlockPage({ status, headers: response.headers, html: text }, response.url, url);
    assertNotRetryStatus(status, response.headers, response.url, url, refuse403);
    const metadata: DocumentMetadata = { sourceURL: url, url: response.url, statusCode: status, proxyUsed: "basic" };
    if (contentType) metadata.contentType = contentType;
    const want = new Set(options.formats.map((f) => f.type));
    const document: Document = { metadata };
    if (extras.expiredWhen && (kind === "pdf" || kind === "binary" || isPdf(response.body, contentType))) document.expiredShown = pageShows(extras.expiredWhen, { url: response.url });

    if (kind === "pdf" || isPdf(response.body, contentType)) {
      if (options.parsers.length === 0) {
        if (want.has("markdown")) document.markdown = pdfToBase64(response.body);
        return document;
      }
      const maxPages = options.parsers[0]?.maxPages;
      const pdf = await pdfToMarkdown(response.body, { ...(maxPages ? { maxPages } : {}), ...(signal ? { signal } : {}) });
      Object.assign(metadata, withoutEmpty(pdf.metadata), { numPages: pdf.numPages });
      if (want.has("markdown")) document.markdown = pdf.markdown;
      if (wantsExtraction(options)) await applyExtraction(document, options, { url: response.url, markdown: pdf.markdown }, this.extractor, signal);
      return document;
    }
    if (kind === "binary") {
      throw new ScrapelineError("bad-content", `${response.url} is not a page: ${contentType ?? "no content type"} with binary content`, { url });
    }
    if (want.has("rawHtml")) document.rawHtml = text;
    if (extras.expiredWhen) document.expiredShown = pageShows(extras.expiredWhen, kind === "json" || kind === "text" ? { url: response.url, text } : { url: response.url, html: text });
    if (kind === "json" || kind === "text") {
      if (want.has("markdown")) document.markdown = kind === "json" ? `\`\`\`json\n${text}\n\`\`\`\n` : text;
      if (want.has("html")) document.html = text;
      if (want.has("links")) document.links = [];
      if (extras.pageLinks) document.pageLinks = [];
      if (want.has("images")) document.images = [];
      if (wantsExtraction(options)) await applyExtraction(document, options, { url: response.url, markdown: text, ...(kind === "json" ? {} : { rawHtml: text }) }, this.extractor, signal);
      return document;
    }
    const markdown = fillFromHtml(document, text, options, extras);
    if (wantsExtraction(options)) await applyExtraction(document, options, { url: response.url, markdown, rawHtml: text }, this.extractor, signal);
    return document;
  }

  /** The browser path: the page after waitFor and actions, converted exactly like the HTTP path. */
  private async scrapeInBrowser(url: string, options: ScrapeOptions, signal: AbortSignal | undefined, extras: ScrapeExtras, route: ProxyRoute, refuse403: boolean): Promise<Document> {
    parseHttpUrl(url);
    const check = this.browser.check;
    const keep = extras.keepOpen !== undefined;
    const page: BrowserPage = await this.browser.withBrowser((browser) => loadPage(browser, { url, options, check, ...(signal ? { signal } : {}), ...(extras.session ? { session: extras.session } : {}), ...(keep ? { keep } : {}), ...(route.proxy ? { upstreamProxy: route.proxy } : {}), ...(this.taps.browser ? { tap: this.taps.browser } : {}) }), signal);
    const kept = page.kept ? new OpenPageWork(page.kept, page) : undefined;
    this.taps.keepBrowserPage?.(url, { url: page.url, status: page.status, headers: page.headers, html: page.html });
    try {
      const document = await this.fromBrowserPage(url, page, options, extras, signal, refuse403);
      if (kept && extras.keepOpen) extras.keepOpen(this.keptPage(url, kept, extras.session));
      return document;
    } catch (error) {
      await kept?.close();
      throw error;
    }
  }

  /** A browser page converted exactly like the HTTP path; a status the runner retries is an error. */
  private async fromBrowserPage(url: string, page: BrowserPage, options: ScrapeOptions, extras: ScrapeExtras, signal: AbortSignal | undefined, refuse403 = false): Promise<Document> {
    assertNotBlockPage(page, page.url, url);
    assertNotRetryStatus(page.status, page.headers, page.url, url, refuse403);
    const metadata: DocumentMetadata = { sourceURL: url, url: page.url, statusCode: page.status, proxyUsed: "basic" };
    const contentType = page.headers["content-type"];
    if (contentType) metadata.contentType = contentType;
    const document: Document = { metadata };
    if (options.formats.some((f) => f.type === "rawHtml")) document.rawHtml = page.html;
    if (extras.expiredWhen) document.expiredShown = pageShows(extras.expiredWhen, { url: page.url, html: page.html });
    const markdown = fillFromHtml(document, page.html, options, extras);
    if (wantsExtraction(options)) await applyExtraction(document, options, { url: page.url, markdown, rawHtml: page.html }, this.extractor, signal);
    if (page.screenshot !== undefined) document.screenshot = page.screenshot;
    if (page.actions) document.actions = { screenshots: [], scrapes: [], javascriptReturns: [], pdfs: [], ...page.actions };
    if (page.blocked.length > 0) {
      const shown = page.blocked.slice(0, 5).map((b) => `${b.url} (${b.reason})`).join("; ");
      document.warning = `the browser was refused ${page.blocked.length} request${page.blocked.length === 1 ? "" : "s"} to non-public addresses: ${shown}${page.blocked.length > 5 ? "; …" : ""}`;
    }
    return document;
  }

  /** A scraped page handed over open: each call takes a browser page slot, as a scrape does. */
  private keptPage(url: string, work: OpenPageWork, session: SessionHandle | undefined): KeptPage {
    return {
      carryOn: (actions, options, signal, tabs) =>
        this.browser.withBrowser(async () => {
          const { page, tabUrls } = await work.carryOn(actions, options, signal, tabs);
          if (session) session.update(await work.cookies());
          // Each snapshot is the page as it was then: converted like the page, with the status it ended on.
          const snapshots: Document[] = [];
          for (const snapshot of page.actions?.scrapes ?? []) {
            snapshots.push(await this.fromBrowserPage(snapshot.url, { url: snapshot.url, status: page.status, headers: page.headers, html: snapshot.html, blocked: [] }, { ...options, actions: [] }, {}, signal));
          }
          return { document: await this.fromBrowserPage(url, page, { ...options, actions: [...actions] }, {}, signal), snapshots, tabUrls };
        }, signal),
      openTab: (tabUrl, options, signal) => {
        // A page closed by a deadline has no context left to open tabs in: the link is loaded on its own, with the session.
        if (work.isClosed) return this.scrape(tabUrl, options, signal, session ? { session } : {});
        parseHttpUrl(tabUrl);
        checkThreatProtection(tabUrl, options.threatProtection, this.riskClassifier);
        return this.browser.withBrowser(async () => this.fromBrowserPage(tabUrl, await work.openTab(tabUrl, options, signal), options, {}, signal), signal);
      },
      close: () => work.close(),
    };
  }

  startCrawl(request: CrawlRequest, options: { signal?: AbortSignal; restore?: unknown; session?: SessionHandle; watch?: DiscoveryWatch }): Promise<CrawlFrontierPort> {
    const { session, watch, ...rest } = options;
    const routed = gateWithProxy(this.gate, this.proxies.discovery(request.scrapeOptions, hostOf(request.url)));
    return openCrawl(gateWithWatch(gateWithSession(routed, session), watch), request, rest);
  }

  map(request: MapRequest, signal?: AbortSignal, extras: { session?: SessionHandle; watch?: DiscoveryWatch } = {}): Promise<MapResult> {
    const gate = gateWithWatch(gateWithSession(gateWithProxy(this.gate, this.proxies.discovery()), extras.session), extras.watch);
    if (request.threatProtection) {
      checkThreatProtection(request.url, request.threatProtection, this.riskClassifier);
      const { threatProtection: _policy, ...rest } = request;
      return mapSite(gate, rest, signal ? { signal } : {});
    }
    return mapSite(gate, request, signal ? { signal } : {});
  }

  combineExtractions(parts: ReadonlyArray<{ url: string; data: unknown }>, schema?: Record<string, unknown>): CombinedExtraction {
    return this.extractor.combine(parts, schema);
  }

  /** A document file converted like a page: its format read from its content (src/engines/local/parse). */
  async parse(file: ParseInput, options: ParseOptions, signal?: AbortSignal): Promise<Document> {
    const { parseInThread, withDeadline } = await import("./parse/index.js");
    // `timeout` is the file's deadline: conversion (in a thread of its own, its memory bounded) and the json format's model call together.
    return withDeadline(file.name, options.timeout, signal, async (deadline) => {
      const parsed = await parseInThread(file, options, deadline);
      if (wantsExtraction(options)) await applyExtraction(parsed.document, options, { url: file.url, markdown: parsed.markdown, ...(parsed.rawHtml !== undefined ? { rawHtml: parsed.rawHtml } : {}) }, this.extractor, deadline);
      return parsed.document;
    });
  }

  /** Threat protection of `options` on `url`, without fetching it. */
  checkTarget(url: string, options: ScrapeOptions): void {
    checkThreatProtection(url, options.threatProtection, this.riskClassifier);
  }

  /** Browser pages can be kept open after a scrape, unless the browser is off. */
  get keepsPages(): boolean {
    return this.browserMode !== "never";
  }

  /** An extract's enableWebSearch searches on the operator's SearXNG, when one is configured. */
  get searchesWeb(): boolean {
    return this.canSearch;
  }

  /** Whether a SearXNG instance is configured for search. */
  get canSearch(): boolean {
    return this.searxngUrl !== undefined || this.taps.searches === true;
  }

  /** Web search on the operator's SearXNG; the runner scrapes the results through this engine's gate. */
  search(request: SearchRequest, options: { signal?: AbortSignal } = {}): Promise<SearchAnswer> {
    return this.searchSend(request, options.signal);
  }

  /** The agent's extract tool: structured data and selectors first, the model when they do not meet the schema. */
  extractPage(page: ExtractionPage, spec: ExtractionSpec, signal?: AbortSignal): Promise<PageExtraction> {
    return this.extractor.extractDeterministicFirst(page, spec, signal);
  }

  /** The agent's model: the extraction's LLM settings (SCRAPELINE_LLM_*), asked through tool calls. */
  agentModel(): AgentModel {
    return this.extractor.agentModel();
  }

  async close(): Promise<void> {
    await Promise.all([this.gate.close(), this.browser.close()]);
  }

  /** A session's login, in the browser (whatever `browser` says: a login form needs one). */
  login(spec: SessionSpec, signal?: AbortSignal): Promise<SessionState> {
    if (this.taps.refuseBrowser) return Promise.reject(this.taps.refuseBrowser(spec.url));
    const check = this.browser.check;
    return this.browser.withBrowser((browser) => loginInBrowser(browser, { spec, check, ...(signal ? { signal } : {}) }), signal);
  }

  /** A page kept open for calls, through the same private-network gate as every browser page. */
  async openLivePage(start: LivePageStart, signal?: AbortSignal): Promise<LivePage> {
    if (start.replay) parseHttpUrl(start.replay.url);
    if (this.taps.refuseBrowser) throw this.taps.refuseBrowser(start.replay?.url ?? "about:blank");
    signal?.throwIfAborted();
    return openLivePage(await this.browser.acquire(), this.browser.check, start);
  }
}

/** A block or challenge page is a failed page of its own class, whatever its status. */
function assertNotBlockPage(page: AnsweredPage, finalUrl: string, url: string): void {
  const vendor = detectBlockPage(page);
  if (vendor) throw new BlockedPageError(vendor, { url, status: page.status, finalUrl });
}

/** 408, 425, 429 and 5xx are errors the runner retries, not documents (and 403 too when `refuse403`: auto's basic attempt). */
function assertNotRetryStatus(status: number, headers: Record<string, string>, finalUrl: string, url: string, refuse403 = false): void {
  if (!RETRY_STATUSES.has(status) && status < 500 && !(refuse403 && status === 403)) return;
  const retryAfterMs = parseRetryAfter(headers["retry-after"]);
  throw new ScrapelineError(status === 429 ? "rate-limited" : "http-status", `HTTP ${status} from ${finalUrl}`, { url, status, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) });
}

/** Markdown, html, links, images and metadata of a page, as `formats` asks; returns the markdown (made also when only extraction needs it). */
function fillFromHtml(document: Document, text: string, options: ScrapeOptions, extras: ScrapeExtras): string {
  const want = new Set(options.formats.map((f) => f.type));
  const { metadata } = document;
  const html = processHtml(text, {
    url: metadata.url,
    onlyMainContent: options.onlyMainContent,
    ...(options.includeTags ? { includeTags: options.includeTags } : {}),
    ...(options.excludeTags ? { excludeTags: options.excludeTags } : {}),
    removeBase64Images: options.removeBase64Images,
    blockAds: options.blockAds,
    want: { markdown: want.has("markdown") || wantsExtraction(options), html: want.has("html"), links: want.has("links"), images: want.has("images"), pageLinks: extras.pageLinks === true },
  });
  Object.assign(metadata, html.metadata, { sourceURL: metadata.sourceURL, url: metadata.url, statusCode: metadata.statusCode });
  if (html.markdown !== undefined && want.has("markdown")) document.markdown = html.markdown;
  if (html.html !== undefined) document.html = html.html;
  if (html.links !== undefined) document.links = html.links;
  if (html.pageLinks !== undefined) document.pageLinks = html.pageLinks;
  if (html.images !== undefined) document.images = html.images;
  return html.markdown ?? "";
}

/** What sends auto's attempt on through the enhanced proxy: a block page, a 403 or a 429. */
function refusedTheBasicWay(error: unknown): boolean {
  return isScrapelineError(error, "blocked-page") || (isScrapelineError(error) && (error.status === 403 || error.status === 429));
}

async function refuseOffline(url: URL): Promise<never> {
  throw new ScrapelineError("not-recorded", `not-recorded: ${url.href} would leave a replay for the network`, { url: url.href });
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function withoutEmpty(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined && v !== ""));
}
