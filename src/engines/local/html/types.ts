/** What processHtml is asked to produce, and from which page. */
export interface HtmlOptions {
  /** Final page URL: the base for relative links unless the page has a `<base href>`. */
  url: string;
  onlyMainContent: boolean;
  /** CSS selectors: keep only the matching elements (copies, in selector order). */
  includeTags?: string[];
  /** CSS selectors: remove the matching elements. */
  excludeTags?: string[];
  /** Markdown only: `![alt](data:...)` becomes `![alt](<Base64-Image-Removed>)`. */
  removeBase64Images: boolean;
  /** Remove ad and cookie-consent elements. */
  blockAds: boolean;
  /** `pageLinks`: every link of the whole page, whatever the content options (what a crawl follows). */
  want: { markdown?: boolean; html?: boolean; links?: boolean; images?: boolean; pageLinks?: boolean };
}

export interface HtmlResult {
  markdown?: string;
  html?: string;
  links?: string[];
  images?: string[];
  pageLinks?: string[];
  /** Always present: read from the raw document's head. */
  metadata: Record<string, unknown>;
}
