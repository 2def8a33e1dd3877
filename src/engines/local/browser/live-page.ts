import type { Browser, BrowserContext, CDPSession, Page } from "playwright-core";
import type { LivePage, LivePageMethod, LivePageStart, ScrapeOptions } from "../../../core/index.js";
import { LIVE_PAGE_METHODS, ScrapelineError } from "../../../core/index.js";
import { redactUrl } from "../fetch/index.js";
import { runActions } from "./actions.js";
import { contextOptions } from "./context-options.js";
import { openContext } from "./guarded-context.js";
import { ProxyGate, type TargetCheck } from "./proxy-gate.js";

/** How long one call may take at most (a goto, a wait). */
const CALL_TIMEOUT_MS = 60_000;
/** How long a page whose script was stopped has to answer before it is replaced. */
const ANSWER_GRACE_MS = 10_000;
const BLANK: Pick<ScrapeOptions, "formats" | "mobile" | "location" | "skipTlsVerification"> = { formats: [], mobile: false, location: { country: "US" }, skipTlsVerification: false };

/**
 * Opens a page that stays open for calls: its own context and proxy gate (every request it makes
 * is checked like a scrape's), the session's cookies and storage when given, and a scrape's URL
 * with its waitFor and actions replayed when asked.
 */
export async function openLivePage(browser: Browser, check: TargetCheck, start: LivePageStart): Promise<LivePage> {
  const gate = await ProxyGate.start({ check });
  let context: BrowserContext | undefined;
  try {
    const options = start.replay?.options ?? (BLANK as ScrapeOptions);
    context = await openContext(browser, { ...contextOptions(options, gate.url), ...(start.session ? { storageState: start.session.state() } : {}) });
    let page = await context.newPage();
    page.setDefaultTimeout(CALL_TIMEOUT_MS);
    if (start.replay) {
      const { url, options: replayed } = start.replay;
      await page.goto(url, { waitUntil: "load", timeout: replayed.timeout }).catch((error: unknown) => {
        const refused = gate.blocked[gate.blocked.length - 1];
        throw refused ? new ScrapelineError("blocked", refused.reason, { url: redactUrl(url) }) : new ScrapelineError("network", `the browser could not load ${redactUrl(url)}: ${firstLine(error)}`, { url: redactUrl(url) });
      });
      if (replayed.waitFor > 0) await page.waitForTimeout(replayed.waitFor);
      const begun = Date.now();
      if (replayed.actions?.length) await runActions(replayed.actions, { page, remainingMs: () => Math.max(1, replayed.timeout - (Date.now() - begun)) });
    }
    const opened = context;
    let cdp = await opened.newCDPSession(page);
    return {
      call: (method, args) => callPage(page, gate, method, args),
      interrupt: async () => {
        const stopped = await stopScript(opened, page, cdp);
        if (stopped !== page) {
          page = stopped;
          cdp = await opened.newCDPSession(page);
        }
      },
      close: async () => {
        await opened.close().catch(() => undefined);
        await gate.close();
      },
    };
  } catch (error) {
    await context?.close().catch(() => undefined);
    await gate.close();
    throw error;
  }
}

/**
 * Stops the script running on `page` (Runtime.terminateExecution) and answers the page once it
 * answers again; a page that does not within ANSWER_GRACE_MS (a timer that starts the loop again)
 * is closed with the context's other pages, and a fresh page of the same context (its cookies and
 * storage) answered instead.
 */
async function stopScript(context: BrowserContext, page: Page, cdp: CDPSession): Promise<Page> {
  await within(cdp.send("Runtime.terminateExecution"));
  // A stop asked for between two scripts ends the next one: the first probe may be it.
  for (let tries = 0; tries < 2; tries++) {
    const answer = await within(page.evaluate("1"));
    if (answer === "answered") return page;
    if (answer === "late") break;
  }
  // Its popups go with it: they are reached only through the page, and may share its busy process.
  await Promise.all(context.pages().map((open) => within(open.close())));
  const fresh = await context.newPage();
  fresh.setDefaultTimeout(CALL_TIMEOUT_MS);
  return fresh;
}

/** How `work` ended within ANSWER_GRACE_MS. */
async function within(work: Promise<unknown>): Promise<"answered" | "failed" | "late"> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), ANSWER_GRACE_MS)));
  try {
    return await Promise.race([work.then(() => "answered" as const, () => "failed" as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

const text = (value: unknown, name: string): string => {
  if (typeof value !== "string") throw new ScrapelineError("invalid-input", `page call: ${name} must be a string`);
  return value;
};
const timeoutOf = (value: unknown): number => {
  const ms = typeof value === "object" && value !== null && typeof (value as { timeout?: unknown }).timeout === "number" ? (value as { timeout: number }).timeout : CALL_TIMEOUT_MS;
  return Math.max(1, Math.min(CALL_TIMEOUT_MS, ms));
};

/** One bridged call; only the methods of LIVE_PAGE_METHODS, with plain JSON in and out. */
async function callPage(page: Page, gate: ProxyGate, method: LivePageMethod, args: readonly unknown[]): Promise<unknown> {
  if (!(LIVE_PAGE_METHODS as readonly string[]).includes(method)) throw new ScrapelineError("invalid-input", `page.${String(method)} is not available`);
  const [a, b] = args;
  try {
    switch (method) {
      case "goto": {
        const response = await page.goto(text(a, "url"), { waitUntil: "load", timeout: timeoutOf(b) });
        return response ? { status: response.status(), url: page.url() } : null;
      }
      case "url":
        return page.url();
      case "title":
        return page.title();
      case "content":
        return page.content();
      case "click":
        await page.locator(text(a, "selector")).first().click({ timeout: timeoutOf(b) });
        return null;
      case "fill":
        await page.locator(text(a, "selector")).first().fill(text(b, "value"), { timeout: CALL_TIMEOUT_MS });
        return null;
      case "type":
        await page.locator(text(a, "selector")).first().pressSequentially(text(b, "text"), { timeout: CALL_TIMEOUT_MS });
        return null;
      case "press":
        await page.keyboard.press(text(a, "key"));
        return null;
      case "waitForSelector":
        await page.waitForSelector(text(a, "selector"), { state: "attached", timeout: timeoutOf(b) });
        return null;
      case "waitForTimeout":
        await page.waitForTimeout(Math.max(0, Math.min(CALL_TIMEOUT_MS, Number(a) || 0)));
        return null;
      case "textContent":
        return page.locator(text(a, "selector")).first().textContent({ timeout: timeoutOf(b) });
      case "innerText":
        return page.locator(text(a, "selector")).first().innerText({ timeout: timeoutOf(b) });
      case "evaluate":
        return page.evaluate(text(a, "expression"));
      case "goBack":
        await page.goBack({ waitUntil: "load", timeout: CALL_TIMEOUT_MS });
        return page.url();
      case "reload":
        await page.reload({ waitUntil: "load", timeout: CALL_TIMEOUT_MS });
        return page.url();
    }
  } catch (error) {
    if (error instanceof ScrapelineError) throw error;
    const refused = gate.blocked[gate.blocked.length - 1];
    if (refused && method === "goto") throw new ScrapelineError("blocked", refused.reason);
    throw new ScrapelineError("bad-content", `page.${method} failed: ${firstLine(error)}`);
  }
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split("\n")[0] ?? message).replace(/^\w+\.\w+: /, "");
}
