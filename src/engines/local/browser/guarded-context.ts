import type { Browser, BrowserContext, BrowserContextOptions, Frame, Page } from "playwright-core";
import { ScrapelineError } from "../../../core/index.js";
import { redactUrl } from "../fetch/index.js";

/**
 * Opens a browser context whose pages load only http(s) URLs: every frame's `goto` (a page's
 * included), in every page of the context (popups too), refuses file:, view-source:, chrome:,
 * devtools:, chrome-extension:, filesystem:, data: and javascript: URLs, and a blob: URL of
 * another origin than the frame's, with the refusal a scrape of such a URL gets. This is
 * the one place the engine makes a context. What a page's own script starts (`location=`,
 * `window.open`, an iframe, `<object>`, a redirect to file:) Chromium refuses itself: a web page
 * may not load local resources; downloads are refused by the context's options.
 */
export async function openContext(browser: Browser, options: BrowserContextOptions): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  // Fired for each page as it is made, before newPage() answers and before a popup loads.
  context.on("page", guardPage);
  return context;
}

function guardPage(page: Page): void {
  guardFrame(page.mainFrame());
  page.on("frameattached", guardFrame);
}

function guardFrame(frame: Frame): void {
  const goto = frame.goto.bind(frame);
  frame.goto = (url, options) => {
    refuseNonHttp(url, frame.url());
    return goto(url, options);
  };
}

/** Throws, for a URL a page may not load, the refusal a scrape of it gets; `from` is the URL of the frame going there. */
function refuseNonHttp(url: string, from: string): void {
  if (url === "about:blank") return;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ScrapelineError("invalid-input", `not a valid URL: ${JSON.stringify(url.slice(0, 200))}`);
  }
  if (parsed.protocol === "http:" || parsed.protocol === "https:") return;
  if (parsed.protocol === "blob:" && originOf(parsed.pathname) !== undefined && originOf(parsed.pathname) === originOf(from)) return;
  // A data: or javascript: URL holds its content: only its scheme is shown.
  const shown = parsed.protocol === "data:" || parsed.protocol === "javascript:" ? `${parsed.protocol}…` : redactUrl(parsed.href);
  throw new ScrapelineError("invalid-input", `${parsed.protocol.slice(0, -1)}: URLs cannot be fetched: ${shown} (only http and https URLs are fetched)`, { url: shown });
}

function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}
