import type { SearchCategory, SearchRequest, SearchSource, SearchTimeRange } from "../../../core/index.js";

/** SearXNG's category for each source. */
export const SEARXNG_CATEGORY: Record<SearchSource["type"], string> = { web: "general", news: "news", images: "images" };

/** `tbs` → SearXNG's time_range; it has no hour, so the past hour asks for the past day. */
const TIME_RANGE: Record<SearchTimeRange, string> = { "qdr:h": "day", "qdr:d": "day", "qdr:w": "week", "qdr:m": "month", "qdr:y": "year" };

/** Sites of the research category (papers and preprints). */
export const RESEARCH_SITES = ["arxiv.org", "scholar.google.com", "pubmed.ncbi.nlm.nih.gov", "semanticscholar.org", "researchgate.net", "nature.com", "ieee.org", "acm.org", "sciencedirect.com", "springer.com"];

/** The query text SearXNG gets: the user's query, then domain and category terms. */
export function queryText(request: SearchRequest): string {
  const terms = [request.query];
  if (request.includeDomains?.length) terms.push(orTerms(request.includeDomains.map((d) => `site:${d}`)));
  for (const domain of request.excludeDomains ?? []) terms.push(`-site:${domain}`);
  const categories = request.categories ?? [];
  const sites = categories.flatMap((c) => (c === "github" ? ["github.com"] : c === "research" ? RESEARCH_SITES : []));
  if (sites.length > 0) terms.push(orTerms(sites.map((s) => `site:${s}`)));
  if (categories.includes("pdf")) terms.push("filetype:pdf");
  return terms.join(" ");
}

function orTerms(terms: string[]): string {
  return terms.length === 1 ? terms[0]! : `(${terms.join(" OR ")})`;
}

/** The parameters of one page of one source's search (without format, which the client adds). */
export function pageParams(request: SearchRequest, source: SearchSource, pageno: number): URLSearchParams {
  const params = new URLSearchParams({ q: queryText(request), categories: SEARXNG_CATEGORY[source.type], pageno: String(pageno), safesearch: "0" });
  const tbs = source.tbs ?? request.tbs;
  if (tbs) params.set("time_range", TIME_RANGE[tbs]);
  params.set("language", language(request));
  return params;
}

/** `lang` and `country` as a SearXNG language: en, de-DE; the service's default language is en. */
export function language(request: Pick<SearchRequest, "lang" | "country">): string {
  const lang = request.lang ?? "en";
  if (!request.country || lang.includes("-")) return lang;
  return `${lang}-${request.country.toUpperCase()}`;
}

/** What the local engine cannot honour as asked, to say once per search. */
export function requestWarnings(request: SearchRequest): string[] {
  const warnings: string[] = [];
  if ([request.tbs, ...request.sources.map((s) => s.tbs)].includes("qdr:h")) warnings.push("SearXNG's narrowest time range is a day: qdr:h returned results of the past day");
  if (request.location || request.sources.some((s) => s.location)) warnings.push("SearXNG has no search location: location was not applied (country and lang were)");
  return warnings;
}

/** The category of a web result when categories were asked: github, pdf or research, by its URL. */
export function categoryOf(url: string, asked: readonly SearchCategory[]): SearchCategory | undefined {
  let host = "";
  let path = "";
  try {
    const parsed = new URL(url);
    host = parsed.hostname.toLowerCase();
    path = parsed.pathname.toLowerCase();
  } catch {
    return undefined;
  }
  if (asked.includes("github") && onDomain(host, "github.com")) return "github";
  if (asked.includes("pdf") && path.endsWith(".pdf")) return "pdf";
  if (asked.includes("research") && RESEARCH_SITES.some((s) => onDomain(host, s))) return "research";
  return undefined;
}

/** Whether a host is the domain or one of its subdomains. */
export function onDomain(host: string, domain: string): boolean {
  const d = domain.toLowerCase().replace(/^\.+|\.+$/g, "");
  return host === d || host.endsWith(`.${d}`);
}
