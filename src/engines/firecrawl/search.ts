import type { Document, ImageResult, NewsResult, OnEngineWait, SearchAnswer, SearchRequest, SearchResults, WebResult } from "../../core/index.js";
import { ScrapelineError } from "../../core/index.js";
import type { ServiceHttp } from "./http.js";

/** Keys of a web or news result; anything else on a scraped result belongs to its Document. */
const WEB_KEYS = ["url", "title", "description", "position", "category"] as const;
const NEWS_KEYS = ["title", "url", "snippet", "date", "imageUrl", "position", "category"] as const;
const IMAGE_KEYS = ["title", "imageUrl", "imageWidth", "imageHeight", "url", "position"] as const;

type Item = Record<string, unknown>;
interface ServiceAnswer {
  success?: boolean;
  data?: { web?: Item[]; news?: Item[]; images?: Item[] };
  creditsUsed?: number;
  id?: string;
  warning?: string;
  error?: string;
}

/**
 * POST /v2/search with the request as the service takes it; results come back 1:1, and a result
 * the service scraped (when formats asked) is split into its result and its Document.
 */
export async function searchService(http: ServiceHttp, request: SearchRequest, options: { signal?: AbortSignal; onWait?: OnEngineWait }): Promise<SearchAnswer> {
  const answer = await http.call<ServiceAnswer>("POST", "/v2/search", {
    body: request,
    what: `the search for "${request.query}"`,
    attempts: 3,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onWait ? { onWait: options.onWait } : {}),
  });
  if (answer.success === false || !answer.data) throw new ScrapelineError("bad-content", `the service could not search for "${request.query}"${answer.error ? `: ${answer.error}` : ""}`);
  const data: SearchResults = {};
  const scraped: Array<{ url: string; document: Document }> = [];
  const take = <T>(items: Item[] | undefined, keys: readonly string[]): T[] | undefined => {
    if (!Array.isArray(items)) return undefined;
    return items.map((item) => {
      const document = documentOf(item, keys);
      if (document && typeof item.url === "string") scraped.push({ url: item.url, document });
      return pick(item, keys) as T;
    });
  };
  const web = take<WebResult>(answer.data.web, WEB_KEYS);
  const news = take<NewsResult>(answer.data.news, NEWS_KEYS);
  const images = take<ImageResult>(answer.data.images, IMAGE_KEYS);
  if (web) data.web = web;
  if (news) data.news = news;
  if (images) data.images = images;
  return {
    data,
    warnings: answer.warning ? [answer.warning] : [],
    ...(typeof answer.creditsUsed === "number" ? { creditsUsed: answer.creditsUsed } : {}),
    ...(answer.id ? { id: answer.id } : {}),
    ...(scraped.length ? { scraped } : {}),
  };
}

function pick(item: Item, keys: readonly string[]): Item {
  return Object.fromEntries(keys.filter((k) => item[k] !== undefined && item[k] !== null).map((k) => [k, item[k]]));
}

/** The Document fields of a scraped result (its markdown, html, metadata…), when it was scraped. */
function documentOf(item: Item, keys: readonly string[]): Document | undefined {
  const fields = Object.fromEntries(Object.entries(item).filter(([k]) => !keys.includes(k)));
  if (Object.keys(fields).length === 0) return undefined;
  const own = typeof fields.metadata === "object" && fields.metadata !== null ? (fields.metadata as Record<string, unknown>) : {};
  const metadata: Record<string, unknown> = { sourceURL: item.url, url: item.url, statusCode: 200, ...own };
  return { ...fields, metadata } as unknown as Document;
}
