import type { CreditRules, Document, ScrapeOptions, Step } from "../core/index.js";
import { searchCredits, whitelisted } from "../core/index.js";

/** Credits of one token-billed operation: 1 credit equals 15 tokens (SPEC.md Limits). */
export const TOKENS_PER_CREDIT = 15;

function usesJson(options: ScrapeOptions): boolean {
  return options.formats.some((f) => f.type === "json" || (f.type === "changeTracking" && f.modes.includes("json")));
}

/** A web-risk scan (mode normal) costs 2; a whitelisted URL is allowed without one, and is not charged for it. */
function threatScan(options: ScrapeOptions, url?: string): number {
  const policy = options.threatProtection;
  if (policy?.mode !== "normal") return 0;
  return url !== undefined && whitelisted(url, policy.whitelist) ? 0 : 2;
}

/**
 * The service's billing rules (DESIGN.md §6): a page 1; json format or changeTracking json mode 5
 * in total; a parsed PDF 1 per page; a PDF returned as base64 1 flat; a threat-protection scan +2
 * (not for a whitelisted URL, which is not scanned);
 * enhanced proxy +0.
 */
export const serviceCreditRules: CreditRules = {
  forDocument(document: Document, options: ScrapeOptions): number {
    const base = usesJson(options) ? 5 : 1;
    const pages = typeof document.metadata.numPages === "number" && options.parsers.length > 0 ? Math.max(0, document.metadata.numPages - 1) : 0;
    return base + pages + threatScan(options, document.metadata.sourceURL);
  },
  estimatePage(options: ScrapeOptions): number {
    return (usesJson(options) ? 5 : 1) + threatScan(options);
  },
  forTokens(tokens: number): number {
    return extractCredits(tokens);
  },
};

/** Credits an extract costs for the tokens it used. */
export function extractCredits(tokens: number): number {
  return Math.ceil(tokens / TOKENS_PER_CREDIT);
}

/** A rough upper estimate of a step's cost, shown by `scrapeline plan` (unknowns say so). */
export function estimateStep(step: Step): { credits: number; exact: boolean; note: string } {
  switch (step.kind) {
    case "scrape": {
      const per = serviceCreditRules.estimatePage(step.body);
      if (Array.isArray(step.body.urls)) return { credits: per * step.body.urls.length, exact: true, note: `${step.body.urls.length} page(s) × ${per}` };
      const limit = step.body.urls.limit;
      return limit ? { credits: per * limit, exact: false, note: `up to ${limit} page(s) from ${step.body.urls.from} × ${per}` } : { credits: 0, exact: false, note: `pages from ${step.body.urls.from} × ${per} (count known at run time)` };
    }
    case "crawl": {
      const per = serviceCreditRules.estimatePage(step.body.scrapeOptions);
      return { credits: per * step.body.limit, exact: false, note: `up to ${step.body.limit} page(s) × ${per}` };
    }
    case "map":
      return { credits: 1, exact: true, note: "1 per call" };
    case "extract": {
      const per = serviceCreditRules.estimatePage(step.body.scrapeOptions);
      const pages = Array.isArray(step.body.urls) ? step.body.urls.length : step.body.urls.limit;
      const note = `ceil(tokens / ${TOKENS_PER_CREDIT}) for the extraction, known after it runs`;
      // enableWebSearch: one search of up to 5 results (2 credits), and those pages.
      const searched = step.body.enableWebSearch ? { credits: searchCredits(5) + 5 * per, note: ` + web search ${searchCredits(5)} + up to 5 page(s) × ${per}` } : { credits: 0, note: "" };
      return pages ? { credits: per * pages + searched.credits, exact: false, note: `${pages} page(s) × ${per}${searched.note} + ${note}` } : { credits: searched.credits, exact: false, note: `pages × ${per}${searched.note} + ${note}` };
    }
    case "parse": {
      const per = serviceCreditRules.estimatePage(step.body);
      const pdf = step.body.parsers.length > 0 ? ", a PDF 1 per page" : "";
      return { credits: per * step.body.files.length, exact: false, note: `${step.body.files.length} file entr${step.body.files.length === 1 ? "y" : "ies"} (globs count once) × ${per}${pdf}` };
    }
    case "search":
      return estimateSearch(step.body);
    case "interact":
      const snapshots = step.body.actions.filter((a) => a.type === "scrape").length;
      return { credits: 0, exact: false, note: `one page per page of ${step.body.from}${snapshots ? ` and ${snapshots} per page for its scrape action(s)` : ""}${step.body.tabs ? ` and up to ${step.body.tabs.limit} tab(s) each` : ""}, billed as a scrape with actions (count known at run time)` };
    case "agent":
      return { credits: step.body.maxCredits, exact: false, note: `at most maxCredits: its tool calls as billed + ceil(model tokens / ${TOKENS_PER_CREDIT})` };
  }
}

/**
 * A search: 2 credits per started 10 results, summed across its sources (up to `limit` each), plus
 * each result scraped as a page when scrapeOptions ask for formats.
 */
function estimateSearch(body: Extract<Step, { kind: "search" }>["body"]): { credits: number; exact: boolean; note: string } {
  const results = body.limit * body.sources.length;
  const search = searchCredits(results);
  const sources = body.sources.length > 1 ? ` (${body.sources.length} sources × ${body.limit})` : "";
  if (!body.scrapeOptions) return { credits: search, exact: false, note: `up to ${results} result(s)${sources}: 2 per 10 results` };
  const per = serviceCreditRules.estimatePage(body.scrapeOptions);
  return { credits: search + per * results, exact: false, note: `up to ${results} result(s)${sources}: 2 per 10 results + ${results} page(s) × ${per}` };
}
