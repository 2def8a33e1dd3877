import { processHtml, type HtmlOptions, type HtmlResult } from "../../../src/engines/local/html/index.js";

export const PAGE_URL = "https://example.com/blog/post.html";

/** processHtml with everything requested and no extraction unless the test asks for it. */
export function run(html: string, options: Partial<HtmlOptions> = {}): HtmlResult {
  return processHtml(html, {
    url: PAGE_URL,
    onlyMainContent: false,
    removeBase64Images: false,
    blockAds: false,
    want: { markdown: true, html: true, links: true, images: true },
    ...options,
  });
}

export function markdown(html: string, options: Partial<HtmlOptions> = {}): string {
  return run(html, options).markdown ?? "";
}
