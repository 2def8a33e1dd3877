import { removeAds } from "./ads.js";
import { removeNonMainByList } from "./baseline.js";
import { authorFromByline } from "./byline.js";
import type { El } from "./dom.js";
import { extractImages } from "./images.js";
import { extractLinks, normalizeLinks } from "./links.js";
import { extractMainContent } from "./main-content/index.js";
import { toMarkdown } from "./markdown/convert.js";
import { extractMetadata, fillIn } from "./metadata.js";
import { parseHtml } from "./parse.js";
import { keepOnly, removeMatching } from "./select.js";
import { serializeHtml } from "./serialize.js";
import { articleFacts } from "./structured-data.js";
import type { HtmlOptions, HtmlResult } from "./types.js";
import { UrlResolver } from "./urls.js";

export type { HtmlOptions, HtmlResult } from "./types.js";
export { checkStrings, htmlText, htmlTokenF1, tokenF1, tokenize } from "./quality.js";

/**
 * Turns a page into what the service returns: cleaned html, markdown, links, images and metadata.
 * The page is parsed once into a compact tree; includeTags, excludeTags, blockAds and
 * onlyMainContent then prune it, and each requested output is one walk over what is left (the
 * `links` format too, as the service's). `pageLinks` are every link of the whole page, collected
 * while parsing: what a crawl follows, since content options shape the content, not where the
 * site leads. Only
 * the outputs in `want` are produced; metadata always is. Never throws on malformed input.
 */
export function processHtml(rawHtml: string, options: HtmlOptions): HtmlResult {
  const want = options.want;
  const included = options.includeTags !== undefined && options.includeTags.length > 0;
  const excluded = options.excludeTags !== undefined && options.excludeTags.length > 0;
  const { root, info } = parseHtml(typeof rawHtml === "string" ? rawHtml : "", {
    allAttributes: want.html === true || included || excluded,
    hints: options.onlyMainContent && !included,
    anchors: want.pageLinks === true,
  });
  const urls = new UrlResolver(options.url, info.baseHref);
  const facts = info.jsonLd.length > 0 ? articleFacts(info.jsonLd) : {};
  const result: HtmlResult = { metadata: extractMetadata(info, urls, facts) };
  if (want.pageLinks) result.pageLinks = normalizeLinks(info.anchors, urls);
  if (!want.markdown && !want.html && !want.links && !want.images) return result;

  let page: El = root;
  if (included) page = keepOnly(page, options.includeTags!);
  if (excluded) removeMatching(page, options.excludeTags!);
  if (options.blockAds) removeAds(page);
  let content = page;
  if (options.onlyMainContent) {
    if (included) removeNonMainByList(page);
    else {
      const found: { byline?: string } = {};
      content = extractMainContent(page, found) ?? page;
      // A byline the page shows but does not state in its meta tags or structured data.
      if (found.byline !== undefined) fillIn(result.metadata, "author", authorFromByline(found.byline));
    }
  }

  if (want.markdown) {
    const context = { urls, removeBase64Images: options.removeBase64Images };
    let markdown = toMarkdown(content, context);
    // As the service does: main-content extraction that leaves nothing falls back to the whole page.
    if (markdown === "" && content !== page) markdown = toMarkdown((content = page), context);
    result.markdown = markdown;
  }
  if (want.html) result.html = serializeHtml(content, urls);
  if (want.links) result.links = extractLinks(content, urls);
  if (want.images) result.images = extractImages(content, info, urls);
  return result;
}
