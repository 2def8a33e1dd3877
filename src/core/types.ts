/**
 * The normalized pipeline: every v1 form mapped to v2, every default applied. This is what the
 * planner, runner and engines see; the shape of the file itself is in generated/pipeline-file.ts.
 */
import type { Action, ThreatProtectionOverride, UrlSource } from "./generated/pipeline-file.js";
import type { SessionSpec } from "./session.js";
import type { ScheduleConfig } from "./schedule.js";
import type { Expectation, SourcePosition } from "./expect.js";

export type { Action, ThreatProtectionOverride, UrlSource };

/** A JSON Schema written by the user (extraction targets); validated when the pipeline loads. */
export type JsonSchema = Record<string, unknown>;

export type SimpleFormat = { type: "markdown" | "html" | "rawHtml" | "links" | "summary" | "images" };
export type JsonFormat = { type: "json"; prompt?: string; schema?: JsonSchema };
export type ScreenshotFormat = { type: "screenshot"; fullPage: boolean; quality?: number; viewport?: { width: number; height: number } };
export type ChangeTrackingMode = "git-diff" | "json";
export type ChangeTrackingFormat = { type: "changeTracking"; modes: ChangeTrackingMode[]; schema?: JsonSchema; prompt?: string; tag: string | null };
export type Format = SimpleFormat | JsonFormat | ScreenshotFormat | ChangeTrackingFormat;
export type FormatType = Format["type"];

export type PdfParser = { type: "pdf"; mode?: "fast" | "auto" | "ocr"; maxPages?: number };

/** Scrape options, v2 shape, defaults applied (SPEC.md ScrapeOptions and "Versioning"). */
export interface ScrapeOptions {
  formats: Format[];
  onlyMainContent: boolean;
  includeTags?: string[];
  excludeTags?: string[];
  maxAge: number;
  headers?: Record<string, string>;
  waitFor: number;
  mobile: boolean;
  skipTlsVerification: boolean;
  timeout: number;
  parsers: PdfParser[];
  actions?: Action[];
  location: { country: string; languages?: string[] };
  removeBase64Images: boolean;
  blockAds: boolean;
  proxy: "basic" | "enhanced" | "auto";
  storeInCache: boolean;
  threatProtection?: ThreatProtectionOverride;
}

/** Where a step's URLs come from: listed in the file, or produced by an earlier step. */
export type UrlInput = string[] | UrlSource;

export interface ScrapeRequest extends ScrapeOptions {
  urls: UrlInput;
}

export interface CrawlRequest {
  url: string;
  prompt?: string;
  includePaths: string[];
  excludePaths: string[];
  regexOnFullURL: boolean;
  maxDiscoveryDepth?: number;
  sitemap: "include" | "skip" | "only";
  crawlEntireDomain: boolean;
  allowSubdomains: boolean;
  allowExternalLinks: boolean;
  ignoreQueryParameters: boolean;
  deduplicateSimilarURLs: boolean;
  limit: number;
  delay?: number;
  scrapeOptions: ScrapeOptions;
}

export interface MapRequest {
  url: string;
  search?: string;
  sitemap: "include" | "skip" | "only";
  includeSubdomains: boolean;
  ignoreQueryParameters: boolean;
  limit: number;
  timeout?: number;
  /** The policy the map's URL meets first (an agent's map tool under a serve team's threat protection). */
  threatProtection?: ThreatProtectionOverride;
}

export interface ExtractRequest {
  urls: UrlInput;
  prompt?: string;
  schema?: JsonSchema;
  enableWebSearch: boolean;
  ignoreSitemap: boolean;
  includeSubdomains: boolean;
  showSources: boolean;
  scrapeOptions: ScrapeOptions;
  ignoreInvalidURLs: boolean;
  /** At most this many pages are extracted. */
  limit: number;
  threatProtection?: ThreatProtectionOverride;
}

/** How a document file is converted: scrape options (those without a browser) plus the parse's own limits. */
export interface ParseOptions extends ScrapeOptions {
  /** Rows kept per spreadsheet sheet. */
  maxRows: number;
  /** Largest file read, in bytes. */
  maxFileSize: number;
}

/** A parse step: document files (paths and globs relative to the pipeline file) converted like pages. */
export interface ParseRequest extends ParseOptions {
  files: string[];
  /** Let paths and globs reach outside the pipeline file's directory tree. */
  allowOutside: boolean;
}

/** Carries on from the pages of an earlier scrape step: they are opened again as it left them, then `actions` run. */
export interface InteractRequest {
  from: string;
  actions: Action[];
  /** Only the pages of `from` with these scrapeIds (lower case). */
  scrapeIds?: string[];
  /** Links of the page the actions leave, opened in tabs of the same context and stored. */
  tabs?: { selector: string; limit: number; actions: Action[] };
}

export interface RetryPolicy {
  attempts: number;
  initialDelayMs: number;
  maxDelayMs: number;
}

interface StepCommon {
  id: string;
  needs: string[];
  retry: RetryPolicy;
  timeoutMs?: number;
  continueOnError: boolean;
  /** The session (from the pipeline's `sessions`) whose login loads the step's pages. */
  session?: string;
  /** What the step's results must look like (`expect:`), judged when it ends. */
  expect?: Expectation[];
  /** Where the step is written in the pipeline file (reporters annotate it). */
  at?: SourcePosition;
}

export type Step =
  | (StepCommon & { kind: "scrape"; body: ScrapeRequest })
  | (StepCommon & { kind: "crawl"; body: CrawlRequest; fromPrompt?: Partial<CrawlRequest>; setInFile?: string[] })
  | (StepCommon & { kind: "map"; body: MapRequest })
  | (StepCommon & { kind: "extract"; body: ExtractRequest })
  | (StepCommon & { kind: "parse"; body: ParseRequest })
  | (StepCommon & { kind: "search"; body: SearchRequest })
  | (StepCommon & { kind: "interact"; body: InteractRequest })
  | (StepCommon & { kind: "agent"; body: AgentRequest });

export type StepKind = Step["kind"];

export type EngineConfig =
  | { kind: "local"; browser: "auto" | "always" | "never" }
  | { kind: "firecrawl"; baseUrl?: string; apiKeyEnv: string };

/** How two versions of a page are compared (the pipeline's `changeTracking`). */
export interface ChangeComparison {
  normalizers: Array<"whitespace" | "volatile" | "iframe-links">;
  volatile: string[];
}

export type NotifyEvent = "changed" | "new" | "removed" | "hidden" | "failed";

/** The notifications a channel sends, named as the hosted service names its webhook events. */
export type MonitorEvent = "monitor.page" | "monitor.check.completed" | "failed";

/** What a crawl, batch scrape or extract job tells its request's webhook (the service's event names). */
export type JobWebhookEvent = `${"crawl" | "batch_scrape" | "extract"}.${"started" | "page" | "completed" | "failed" | "cancelled"}`;

/** Any event a notification is sent for. */
export type NotificationEvent = MonitorEvent | JobWebhookEvent;

/** One place notifications go. */
export type NotifyChannel =
  | { type: "webhook"; url: string; secret?: string; events: NotificationEvent[]; format?: "service"; id?: string; metadata?: Record<string, unknown>; /** Sent with every post (a job's webhook.headers). */ headers?: Record<string, string> }
  | { type: "slack"; url: string; events: MonitorEvent[] }
  | { type: "email"; host: string; port: number; secure: boolean; user?: string; password?: string; from: string; to: string[]; events: MonitorEvent[] };

/** What makes a changed page worth telling (the pipeline's `notify.rules`). */
export interface NotifyRules {
  addedOnly: boolean;
  keywords: string[];
  ignore: string[];
  threshold?: { field: string; dropPercent: number };
}

/** Whom to tell about a run, and when (the pipeline's `notify`). */
export interface NotifyConfig {
  /** The one-webhook form, as written; it is also the first of `channels`. */
  webhook?: { url: string; secret?: string };
  channels: NotifyChannel[];
  on: NotifyEvent[];
  rules: NotifyRules;
}

/** Where the extraction model is configured: names of environment variables, never their values. */
export interface LlmSettings {
  baseUrlEnv: string;
  apiKeyEnv: string;
  modelEnv: string;
  contextTokens: number;
  timeoutMs: number;
}

export interface Pipeline {
  /** The file it was read from, as given. */
  file: string;
  version: 1;
  name: string;
  description?: string;
  engine: EngineConfig;
  concurrency: number;
  perHostConcurrency: number;
  retry: RetryPolicy;
  budget: { maxCredits?: number };
  allowPrivateNetwork: boolean;
  /** false: its runs keep no raw pages (`keepPages: false`), so none can be converted again with --from-run. */
  keepPages?: false;
  changeTracking: ChangeComparison;
  notify?: NotifyConfig;
  /** When the pipeline runs by itself under `scrapeline watch`. */
  schedule?: ScheduleConfig;
  /** How schemas are filled: with the model when configured (auto), always with it, or never. */
  extractor: "auto" | "llm" | "deterministic";
  llm: LlmSettings;
  steps: Step[];
  /** Logins kept between runs, by name (`sessions` in the file). */
  sessions?: Record<string, SessionSpec>;
  /** What the whole run must look like (the pipeline's `expect:`), judged when it ends. */
  expect?: Expectation[];
}

export interface PlannedStep {
  step: Step;
  /** Steps that must finish first: `needs` plus the step named by `urls.from`. */
  dependsOn: string[];
  /** 0 for steps that depend on nothing; otherwise one more than the deepest dependency. */
  stage: number;
}

/** A pipeline put in order (src/planner): what the runner executes. */
export interface Plan {
  pipeline: Pipeline;
  /** Every step in run order (stable: file order within a stage). */
  steps: PlannedStep[];
  /** Steps grouped by stage; the steps of one stage may run at the same time. */
  stages: PlannedStep[][];
}

/** The kinds of results a search returns (the v2 `sources`). */
export type SearchSourceType = "web" | "news" | "images";
export type SearchCategory = "github" | "research" | "pdf";
export type SearchTimeRange = "qdr:h" | "qdr:d" | "qdr:w" | "qdr:m" | "qdr:y";

/** One source of a search in object form, with its own options. */
export interface SearchSource {
  type: SearchSourceType;
  tbs?: SearchTimeRange;
  location?: string;
}

/**
 * A search, v2 shape, defaults applied: sources in object form, categories as names. Results are
 * scraped only when `scrapeOptions` is present (the file asked for formats).
 */
export interface SearchRequest {
  query: string;
  limit: number;
  sources: SearchSource[];
  categories?: SearchCategory[];
  tbs?: SearchTimeRange;
  location?: string;
  country?: string;
  lang?: string;
  includeDomains?: string[];
  excludeDomains?: string[];
  timeout: number;
  ignoreInvalidURLs: boolean;
  scrapeOptions?: ScrapeOptions;
}

/** An agent step, defaults applied: a model that searches, maps and scrapes until it can answer. */
export interface AgentRequest {
  /** What to find (at most 10000 characters). */
  prompt: string;
  /** Where to start; with strictConstrainToURLs, the only places it may go (and the pages under them). */
  urls?: string[];
  /** The shape of the answer; the model's data is validated against it. */
  schema?: JsonSchema;
  strictConstrainToURLs: boolean;
  /** Credits the agent may spend (tool calls as billed plus model tokens); reaching them stops it with what it has. */
  maxCredits: number;
  /** Model turns it may take. */
  maxSteps: number;
  /** How its scrape tool reads pages: the pipeline's default scrape options with markdown and links (not sent to a service). */
  scrapeOptions?: ScrapeOptions;
  /** Per-request override of the threat-protection policy (also in scrapeOptions, where the engine applies it). */
  threatProtection?: ThreatProtectionOverride;
}
