import type { Browser, BrowserContext, Page } from "playwright-core";
import type { ScrapeOptions, SessionSpec, SessionState } from "../../../core/index.js";
import { isScrapelineError, ScrapelineError } from "../../../core/index.js";
import { redactUrl } from "../fetch/index.js";
import { runActions } from "./actions.js";
import { contextOptions } from "./context-options.js";
import { openContext } from "./guarded-context.js";
import { ProxyGate, type TargetCheck } from "./proxy-gate.js";

/** The context a login opens in: a desktop browser, every request through the gate. */
const LOGIN_PAGE: Pick<ScrapeOptions, "formats" | "mobile" | "location" | "skipTlsVerification"> = { formats: [], mobile: false, location: { country: "US" }, skipTlsVerification: false };

const HANG_GRACE_MS = 1_000;

export interface LoginJob {
  spec: SessionSpec;
  check: TargetCheck;
  signal?: AbortSignal;
}

/**
 * Logs in: opens the session's URL in a fresh context, performs its actions, checks
 * `successWhen`, and returns the context's cookies and storage. Every failure names the session
 * and the part that failed, never the values the actions typed.
 */
export async function loginInBrowser(browser: Browser, job: LoginJob): Promise<SessionState> {
  const { spec, signal } = job;
  const gate = await ProxyGate.start({ check: job.check });
  const started = Date.now();
  const remainingMs = () => Math.max(1, spec.timeoutMs - (Date.now() - started));
  let context: BrowserContext | undefined;
  let timedOut = false;
  const stop = () => void context?.close().catch(() => undefined);
  // The steps bound their own waits by what is left; this catches a page that hangs past that.
  const timer = setTimeout(() => {
    timedOut = true;
    stop();
  }, spec.timeoutMs + HANG_GRACE_MS);
  signal?.addEventListener("abort", stop, { once: true });
  const failed = (reason: string, cause?: unknown) => new ScrapelineError("bad-content", `the login of session "${spec.name}" failed: ${reason}`, { url: redactUrl(spec.url), ...(cause ? { cause } : {}) });
  try {
    signal?.throwIfAborted();
    context = await openContext(browser, contextOptions(LOGIN_PAGE as ScrapeOptions, gate.url));
    const page = await context.newPage();
    page.setDefaultTimeout(spec.timeoutMs);
    const response = await page.goto(spec.url, { waitUntil: "load", timeout: spec.timeoutMs }).catch((error: unknown) => {
      const refused = gate.blocked[gate.blocked.length - 1];
      throw refused ? new ScrapelineError("blocked", refused.reason, { url: redactUrl(spec.url) }) : failed(`could not open ${redactUrl(spec.url)}: ${firstLine(error)}`, error);
    });
    if (response && response.status() >= 400) throw failed(`the login page answered HTTP ${response.status()}`);
    try {
      await runActions(spec.actions, { page, remainingMs });
    } catch (error) {
      throw failed(firstLine(error), error);
    }
    await checkSuccess(page, spec, remainingMs(), failed);
    const state = await context.storageState();
    return { cookies: state.cookies.map((c) => ({ ...c })), origins: state.origins.map((o) => ({ origin: o.origin, localStorage: o.localStorage.map((e) => ({ ...e })) })) };
  } catch (error) {
    if (timedOut) throw new ScrapelineError("timeout", `the login of session "${spec.name}" did not finish within ${spec.timeoutMs} ms`, { url: redactUrl(spec.url), cause: error });
    if (signal?.aborted) throw new ScrapelineError("cancelled", `cancelled while logging in to session "${spec.name}"`, { cause: error });
    if (isScrapelineError(error)) throw error;
    throw failed(firstLine(error), error);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", stop);
    await context?.close().catch(() => undefined);
    await gate.close();
  }
}

async function checkSuccess(page: Page, spec: SessionSpec, timeout: number, failed: (reason: string) => ScrapelineError): Promise<void> {
  const { selector, urlMatches, textContains } = spec.successWhen;
  const where = () => `the page is at ${redactUrl(page.url())}`;
  try {
    if (selector !== undefined) await page.waitForSelector(selector, { state: "attached", timeout });
    else if (urlMatches !== undefined) {
      const pattern = new RegExp(urlMatches);
      await page.waitForURL((url) => pattern.test(url.href), { timeout, waitUntil: "commit" });
    } else if (textContains !== undefined) {
      await page.waitForFunction(`(document.body?.innerText ?? "").includes(${JSON.stringify(textContains)})`, undefined, { timeout });
    }
  } catch {
    const what = selector !== undefined ? `no element matched successWhen.selector ${JSON.stringify(selector)}` : urlMatches !== undefined ? `the URL never matched successWhen.urlMatches ${JSON.stringify(urlMatches)}` : `the page never contained successWhen.textContains ${JSON.stringify(textContains)}`;
    throw failed(`${what} after the actions (${where()})`);
  }
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split("\n")[0] ?? message).replace(/^\w+\.\w+: /, "");
}
