import type { Browser, BrowserContext, BrowserContextOptions, Frame, Page } from "playwright-core";
import { parseHttpUrl } from "../fetch/index.js";

/**
 * Opens a browser context whose pages load only http(s) URLs: every frame's `goto` (a page's
 * included), in every page of the context (popups too), refuses file:, view-source:, chrome:,
 * devtools:, chrome-extension:, filesystem:, data: and javascript: URLs, and a blob: URL of
 * another origin than the frame's, with the "blocked" error a fetch of such a URL gets. This is
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

/** Throws the fetch gate's "blocked" error for a URL a page may not load; `from` is the URL of the frame going there. */
function refuseNonHttp(url: string, from: string): void {
  if (url === "about:blank") return;
  if (url.startsWith("blob:")) {
    const origin = originOf(url.slice(5));
    if (origin !== undefined && origin === originOf(from)) return;
  }
  parseHttpUrl(url);
}

function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}
