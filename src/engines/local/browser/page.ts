import type { Browser, BrowserContext, Page, Response } from "playwright-core";
import type { ActionResults, ScrapeOptions, SessionHandle } from "../../../core/index.js";
import { isScrapelineError, ScrapelineError } from "../../../core/index.js";
import { redactUrl } from "../fetch/index.js";
import { isAdHost } from "../html/ads.js";
import { dataUrl, runActions } from "./actions.js";
import { contextOptions } from "./context-options.js";
import { openContext } from "./guarded-context.js";
import { BLOCKED_HEADER, ProxyGate, type BlockedRequest, type TargetCheck } from "./proxy-gate.js";
import { WorkDeadline } from "./work-deadline.js";
import type { BrowserTap, BrowserTraffic } from "../taps.js";

/** A page as the browser left it after waitFor and the actions. */
export interface BrowserPage {
  /** The final URL. */
  url: string;
  status: number;
  /** Headers of the main response, lower-case names. */
  headers: Record<string, string>;
  html: string;
  screenshot?: string;
  actions?: ActionResults;
  /** Requests the private-network gate refused; the page completed without them. */
  blocked: BlockedRequest[];
  /** The page itself, still open, when the job asked to keep it. */
  kept?: OpenPage;
}

/** A page left open in its own context, behind its own proxy gate; closing it closes both. */
export interface OpenPage {
  context: BrowserContext;
  page: Page;
  gate: ProxyGate;
}

export interface PageJob {
  url: string;
  options: ScrapeOptions;
  check: TargetCheck;
  signal?: AbortSignal;
  /** Open the page with this session's cookies and storage, and give it back the cookies the page set. */
  session?: SessionHandle;
  /** Leave the page open (in `kept`) rather than closing its context: the caller closes it. */
  keep?: boolean;
  /** The operator's proxy the page's requests go on through, after the gate has checked them. */
  upstreamProxy?: URL;
  /** The page's traffic recorded, or answered from a fixture (src/engines/replay). */
  tap?: BrowserTap;
}

/**
 * Loads one page in a fresh context of `browser`: navigates through a proxy gate of its own,
 * waits `waitFor`, performs the actions, then takes the HTML and the screenshot format. The
 * context and its gate are closed whatever happens, unless `keep` hands a loaded page over;
 * `timeout` bounds the whole page.
 */
export async function loadPage(browser: Browser, job: PageJob): Promise<BrowserPage> {
  const { options, signal } = job;
  const gate = await ProxyGate.start({ check: job.check, ...(options.blockAds ? { refuseHost: isAdHost } : {}), ...(job.upstreamProxy ? { upstream: job.upstreamProxy } : {}) });
  const started = Date.now();
  const remainingMs = () => Math.max(1, options.timeout - (Date.now() - started));
  let context: BrowserContext | undefined;
  let traffic: BrowserTraffic | undefined;
  let handedOver = false;
  const deadline = new WorkDeadline(options.timeout, signal, () => void context?.close().catch(() => undefined));
  const load = async (): Promise<BrowserPage> => {
    const opened = await openContext(browser, { ...contextOptions(options, gate.url), ...(job.session ? { storageState: job.session.state() } : {}) });
    context = opened;
    if (deadline.isOver) {
      // Opened after the deadline or the stop: nobody is left to close it but this.
      await opened.close().catch(() => undefined);
      throw new ScrapelineError("cancelled", "the page's work ended before its context opened");
    }
    traffic = await job.tap?.attach(opened);
    const page = await opened.newPage();
    page.setDefaultTimeout(options.timeout);
    const response = await navigate(page.goto(job.url, { waitUntil: "load", timeout: options.timeout }), job.url, gate);
    const loaded = await settle(page, { status: response.status(), headers: await response.allHeaders() }, options, gate, remainingMs);
    await traffic?.settled();
    const failure = traffic?.failure();
    if (failure) throw failure;
    if (job.session) job.session.update(await opened.cookies());
    if (job.keep && !deadline.isOver) {
      loaded.kept = { context: opened, page, gate };
      handedOver = true;
    }
    return loaded;
  };
  try {
    return await deadline.race(load());
  } catch (error) {
    // A replayed page fails for the request its fixture did not hold, whatever that did to the page.
    throw traffic?.failure() ?? pageError(error, job.url, options.timeout, deadline.timedOut, signal);
  } finally {
    deadline.dispose();
    if (!handedOver) {
      await context?.close().catch(() => undefined);
      await gate.close();
    }
  }
}

/**
 * The page once it has settled: after `waitFor` (unless skipped) and the options' actions, its
 * HTML and the screenshot format; `response` is the status and headers it answered with.
 */
export async function settle(page: Page, response: { status: number; headers: Record<string, string> }, options: ScrapeOptions, gate: ProxyGate, remainingMs: () => number, skipWait = false): Promise<BrowserPage> {
  if (options.waitFor > 0 && !skipWait) await page.waitForTimeout(options.waitFor);
  const actions = options.actions?.length ? await runActions(options.actions, { page, remainingMs }) : undefined;
  const html = await page.content();
  const format = options.formats.find((f) => f.type === "screenshot");
  let screenshot: string | undefined;
  if (format?.type === "screenshot") {
    const quality = format.quality;
    const image = await page.screenshot({ fullPage: format.fullPage, scale: "css", ...(quality !== undefined ? { type: "jpeg", quality } : { type: "png" }) });
    screenshot = dataUrl(quality !== undefined ? "image/jpeg" : "image/png", image);
  }
  return {
    url: page.url(),
    status: response.status,
    headers: response.headers,
    html,
    ...(screenshot ? { screenshot } : {}),
    ...(actions ? { actions } : {}),
    blocked: [...gate.blocked],
  };
}

/** What a failure of browser work on `url` is, by its cause: the deadline, a stop, the site, the browser. */
export function pageError(error: unknown, url: string, timeoutMs: number, timedOut: boolean, signal?: AbortSignal): ScrapelineError {
  const shown = redactUrl(url);
  if (timedOut) return new ScrapelineError("timeout", `the page did not finish within ${timeoutMs} ms in the browser: ${shown}`, { url: shown, cause: error });
  if (signal?.aborted) return new ScrapelineError("cancelled", `cancelled while loading ${shown} in the browser`, { url: shown, cause: error });
  if (isScrapelineError(error)) return error;
  // Chromium stops at 20 redirects or a loop; the site answers so every time, so it is not retried like a network failure.
  if (firstLine(error).includes("net::ERR_TOO_MANY_REDIRECTS")) {
    return new ScrapelineError("http-status", `too many redirects loading ${shown} in the browser (a redirect loop or more than 20 hops)`, { url: shown, cause: error });
  }
  return new ScrapelineError("network", `the browser could not load ${shown}: ${firstLine(error)}`, { url: shown, cause: error });
}

/** The main response, or the gate's reason when the navigation itself was refused. */
export async function navigate(going: Promise<Response | null>, url: string, gate: ProxyGate): Promise<Response> {
  const shown = redactUrl(url);
  let response: Response | null;
  try {
    response = await going;
  } catch (error) {
    const refused = gate.blocked[gate.blocked.length - 1];
    if (refused) throw new ScrapelineError("blocked", refused.reason, { url: shown, cause: error });
    if (/Download is starting/i.test(firstLine(error))) {
      throw new ScrapelineError("bad-content", `${shown} is a file download, not a page; scrape it without browser options (actions, waitFor, screenshot, mobile)`, { url: shown, cause: error });
    }
    throw error;
  }
  if (!response) throw new ScrapelineError("network", `the browser got no response for ${shown}`, { url: shown });
  if (response.headers()[BLOCKED_HEADER]) {
    const refused = gate.blocked[gate.blocked.length - 1];
    throw new ScrapelineError("blocked", refused?.reason ?? `refused to load ${shown}`, { url: shown });
  }
  return response;
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0] ?? message;
}
