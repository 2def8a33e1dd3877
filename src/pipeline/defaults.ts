/**
 * Every default of the pipeline language, in the form a user would write it (v2 defaults where
 * SPEC.md "Versioning" changes them). This is the one place defaults are applied from; a test
 * checks that each `default` annotation in schemas/ says the same.
 */
export const DEFAULT_SCRAPE_OPTIONS = {
  formats: ["markdown"],
  onlyMainContent: true,
  maxAge: 172_800_000,
  waitFor: 0,
  mobile: false,
  skipTlsVerification: true,
  timeout: 30_000,
  parsers: ["pdf"],
  removeBase64Images: true,
  blockAds: true,
  proxy: "basic",
  storeInCache: true,
} as const;

/**
 * Where v1's scrape options default differently (SPEC.md ScrapeOptions (v1) and "Versioning" 3):
 * v1 requests, and scrape options written in v1 form, get these instead.
 */
export const V1_SCRAPE_OPTION_DEFAULTS = {
  maxAge: 0,
  skipTlsVerification: false,
} as const;

export const DEFAULT_LOCATION = { country: "US" } as const;

export const DEFAULT_CRAWL = {
  includePaths: [],
  excludePaths: [],
  regexOnFullURL: false,
  sitemap: "include",
  crawlEntireDomain: false,
  allowSubdomains: false,
  allowExternalLinks: false,
  ignoreQueryParameters: false,
  deduplicateSimilarURLs: true,
  limit: 10_000,
} as const;

export const DEFAULT_MAP = {
  sitemap: "include",
  includeSubdomains: true,
  ignoreQueryParameters: true,
  limit: 5000,
} as const;

/** Search defaults (`sources` is applied apart: the schema's default is the string form). */
export const DEFAULT_SEARCH = {
  limit: 10,
  timeout: 60_000,
  ignoreInvalidURLs: false,
} as const;

export const DEFAULT_SEARCH_SOURCES = ["web"] as const;

export const DEFAULT_EXTRACT = {
  enableWebSearch: false,
  ignoreSitemap: false,
  includeSubdomains: true,
  showSources: false,
  ignoreInvalidURLs: false,
  limit: 1000,
} as const;

export const DEFAULT_PIPELINE = {
  engine: "local",
  concurrency: 8,
  perHostConcurrency: 2,
  allowPrivateNetwork: false,
  extractor: "auto",
} as const;

/** The pipeline's `llm` settings: where the extraction model is configured. */
export const DEFAULT_LLM = {
  baseUrlEnv: "SCRAPELINE_LLM_BASE_URL",
  apiKeyEnv: "SCRAPELINE_LLM_API_KEY",
  modelEnv: "SCRAPELINE_LLM_MODEL",
  contextTokens: 32_000,
  timeoutMs: 120_000,
} as const;

export const DEFAULT_RETRY = { attempts: 3, initialDelayMs: 500, maxDelayMs: 30_000 } as const;

export const DEFAULT_STEP = { continueOnError: false } as const;

/** The pipeline's `changeTracking` settings: how two versions of a page are compared. */
export const DEFAULT_CHANGE_COMPARISON = { normalizers: ["iframe-links", "volatile", "whitespace"], volatile: [] } as const;

/** The pipeline's `notify` settings. */
export const DEFAULT_NOTIFY = { on: ["changed", "new", "removed", "failed"] } as const;

/** The `notify.rules` settings. */
export const DEFAULT_NOTIFY_RULES = { addedOnly: false, keywords: [], ignore: [] } as const;

/** What each notify channel sends, and an email channel's connection. */
export const DEFAULT_NOTIFY_CHANNEL = { events: ["monitor.check.completed"] } as const;
/** A webhook channel's body: this tool's JSON unless `format: service` asks for the service's envelope. */
export const DEFAULT_WEBHOOK_CHANNEL = { format: "scrapeline" } as const;
export const DEFAULT_EMAIL_CHANNEL = { port: 587, secure: false } as const;

/** The pipeline's `schedule` settings. */
export const DEFAULT_SCHEDULE = { timezone: "UTC", jitterSeconds: 0, missed: "once", minIntervalSeconds: 60 } as const;

export const DEFAULT_ENGINE_OBJECT = { apiKeyEnv: "FIRECRAWL_API_KEY", browser: "auto" } as const;

/** An interact step's `tabs`: how many links of a page are opened at most. */
export const DEFAULT_INTERACT_TABS = { limit: 10 } as const;

/** Defaults of each action, by type. */
export const DEFAULT_ACTIONS: Record<string, Record<string, unknown>> = {
  click: { all: false },
  scroll: { direction: "down" },
  screenshot: { fullPage: false },
  pdf: { format: "Letter", landscape: false, scale: 1 },
};

/** Defaults of each object format, by type. */
export const DEFAULT_FORMATS: Record<string, Record<string, unknown>> = {
  screenshot: { fullPage: false },
  changeTracking: { modes: [], tag: null },
};

export const DEFAULT_CHANGE_TRACKING_OPTIONS = { tag: null } as const;

/** A parse step's own defaults (its scrape options take DEFAULT_SCRAPE_OPTIONS). */
export const DEFAULT_PARSE = {
  allowOutside: false,
  maxRows: 1000,
  maxFileSize: 50 * 1024 * 1024,
} as const;

/** A session's defaults (session.schema.json). */
export const DEFAULT_SESSION = { maxAge: "12h", timeoutMs: 30_000 };

/** Agent defaults (the schema's). */
export const DEFAULT_AGENT = {
  strictConstrainToURLs: false,
  maxCredits: 2500,
  maxSteps: 30,
} as const;
