import type { Page, Response } from "playwright-core";
import type { Action, ScrapeOptions, TabLinks } from "../../../core/index.js";
import { ScrapelineError } from "../../../core/index.js";
import { redactUrl } from "../fetch/index.js";
import { navigate, pageError, settle, type BrowserPage, type OpenPage } from "./page.js";
import { WorkDeadline } from "./work-deadline.js";

/**
 * Work on a page a scrape left open: the next actions on it as it stands, and links of it loaded
 * in tabs of the same context (its cookies and storage, its proxy gate). Each call is bounded by
 * its options' `timeout`; one that runs out, or is stopped, closes the page, which is then of no
 * further use (the caller loads it afresh).
 */
export class OpenPageWork {
  private last: { status: number; headers: Record<string, string> };
  private closed = false;

  constructor(
    private readonly open: OpenPage,
    answered: { status: number; headers: Record<string, string> },
  ) {
    this.last = answered;
    // A click that navigates answers with a new status: the page's is that of its latest navigation.
    open.page.on("response", (response: Response) => {
      if (response.request().isNavigationRequest() && response.frame() === open.page.mainFrame()) {
        this.last = { status: response.status(), headers: response.headers() };
      }
    });
  }

  /** Runs `actions` on the page and reads what they leave; with `tabs`, also the links to open. */
  carryOn(actions: readonly Action[], options: ScrapeOptions, signal: AbortSignal | undefined, tabs: TabLinks | undefined): Promise<{ page: BrowserPage; tabUrls: string[] }> {
    const url = this.open.page.url();
    return this.bounded(url, options.timeout, signal, "carry-on", () => this.close(), async (remainingMs) => {
      const page = await settle(this.open.page, this.last, { ...options, actions: [...actions] }, this.open.gate, remainingMs, true);
      return { page, tabUrls: tabs ? await linksOf(this.open.page, tabs) : [] };
    });
  }

  /** Loads `url` in a new tab of the context, waits and runs the options' actions there, reads it and closes the tab. */
  async openTab(url: string, options: ScrapeOptions, signal: AbortSignal | undefined): Promise<BrowserPage> {
    let tab: Page | undefined;
    let ended = false;
    // A tab that runs out of time is closed alone: the page it was opened from stays as it was.
    const stop = () => {
      ended = true;
      void tab?.close().catch(() => undefined);
    };
    try {
      return await this.bounded(url, options.timeout, signal, "load", stop, async (remainingMs) => {
        tab = await this.open.context.newPage();
        if (ended) {
          // Opened after the deadline or the stop: nobody is left to close it but this.
          void tab.close().catch(() => undefined);
          throw new ScrapelineError("cancelled", "the tab's work ended before it opened");
        }
        tab.setDefaultTimeout(options.timeout);
        const response = await navigate(tab.goto(url, { waitUntil: "load", timeout: options.timeout }), url, this.open.gate);
        return settle(tab, { status: response.status(), headers: await response.allHeaders() }, options, this.open.gate, remainingMs);
      });
    } finally {
      // A tab whose work ended early is being closed already; waiting for that is waiting on the browser.
      if (!ended) await tab?.close().catch(() => undefined);
    }
  }

  /** The cookies of the page's context, for the session it was loaded in. */
  cookies(): ReturnType<OpenPage["context"]["cookies"]> {
    return this.open.context.cookies();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.open.context.close().catch(() => undefined);
    await this.open.gate.close();
  }

  /**
   * Runs `work` before the deadline; running out or being stopped calls `stop` (the page's state is
   * then unknown) and ends the call at once, whatever browser call it was waiting on.
   */
  private async bounded<T>(url: string, timeoutMs: number, signal: AbortSignal | undefined, what: "carry-on" | "load", stop: () => void, work: (remainingMs: () => number) => Promise<T>): Promise<T> {
    if (this.closed) throw new ScrapelineError("internal", "the kept page was already closed");
    const started = Date.now();
    const deadline = new WorkDeadline(timeoutMs, signal, stop);
    try {
      return await deadline.race(work(() => Math.max(1, timeoutMs - (Date.now() - started))));
    } catch (error) {
      if (what === "carry-on" && !deadline.isOver && !(error instanceof ScrapelineError)) {
        // The page is there; what failed is working on it (an action names it itself).
        throw new ScrapelineError("bad-content", `carrying on from ${redactUrl(url)} failed: ${firstLine(error)}`, { url: redactUrl(url), cause: error });
      }
      throw pageError(error, url, timeoutMs, deadline.timedOut, signal);
    } finally {
      deadline.dispose();
    }
  }
}

/** The absolute http(s) URLs of the links `tabs.selector` matches, in page order, without duplicates or fragments, at most `tabs.limit`. */
async function linksOf(page: Page, tabs: TabLinks): Promise<string[]> {
  // The element itself, the link around it, or the first link inside it (a card holding its link).
  const hrefs = (await page.evaluate(`Array.from(document.querySelectorAll(${JSON.stringify(tabs.selector)}), (element) => {
    const anchor = element.closest("a[href]") || element.querySelector("a[href]");
    return anchor ? anchor.href : "";
  })`)) as string[];
  const seen = new Set<string>();
  for (const href of hrefs) {
    if (seen.size >= tabs.limit) break;
    try {
      const link = new URL(href);
      if (link.protocol !== "http:" && link.protocol !== "https:") continue;
      link.hash = "";
      seen.add(link.href);
    } catch {
      // Not a URL: not a link to open.
    }
  }
  return [...seen];
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split("\n")[0] ?? message).replace(/^\w+\.\w+: /, "");
}
