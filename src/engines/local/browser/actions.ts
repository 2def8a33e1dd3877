import type { Page } from "playwright-core";
import type { Action, ActionResults } from "../../../core/index.js";
import { ScrapelineError } from "../../../core/index.js";

/** How long click and scroll look for their element before the action fails. */
export const ELEMENT_TIMEOUT_MS = 5_000;

export interface ActionContext {
  page: Page;
  /** Milliseconds left before the page's deadline. */
  remainingMs: () => number;
}

/**
 * Performs the actions in order, collecting what they return. A failing action fails the page
 * with an error naming it as users count it: "action 3 of 4 (click)", starting at 1.
 */
export async function runActions(actions: readonly Action[], context: ActionContext): Promise<ActionResults> {
  const results: ActionResults = {};
  for (const [index, action] of actions.entries()) {
    try {
      await perform(action, context, results);
    } catch (cause) {
      throw actionError(action, index, actions.length, cause);
    }
  }
  return results;
}

async function perform(action: Action, { page, remainingMs }: ActionContext, results: ActionResults): Promise<void> {
  const elementTimeout = () => Math.max(1, Math.min(ELEMENT_TIMEOUT_MS, remainingMs()));
  switch (action.type) {
    case "wait":
      if (action.milliseconds !== undefined) await page.waitForTimeout(action.milliseconds);
      if (action.selector !== undefined) await page.waitForSelector(action.selector, { state: "attached", timeout: Math.max(1, remainingMs()) });
      return;
    case "click": {
      if (action.all) {
        for (const element of await page.locator(action.selector).all()) await element.click({ timeout: elementTimeout() });
        return;
      }
      await page.locator(action.selector).first().click({ timeout: elementTimeout() });
      return;
    }
    case "write":
      await page.keyboard.type(action.text);
      return;
    case "press":
      await page.keyboard.press(action.key);
      return;
    case "scroll":
      await scroll(page, action.direction ?? "down", action.selector, elementTimeout());
      return;
    case "screenshot": {
      const quality = action.quality;
      const image = await page.screenshot({ fullPage: action.fullPage ?? false, scale: "css", ...(quality !== undefined ? { type: "jpeg", quality } : { type: "png" }) });
      (results.screenshots ??= []).push(dataUrl(quality !== undefined ? "image/jpeg" : "image/png", image));
      return;
    }
    case "scrape":
      (results.scrapes ??= []).push({ url: page.url(), html: await page.content() });
      return;
    case "executeJavascript": {
      const value = await evaluateScript(page, action.script);
      (results.javascriptReturns ??= []).push({ type: value === null ? "null" : Array.isArray(value) ? "array" : typeof value, value: value ?? null });
      return;
    }
    case "pdf": {
      const pdf = await page.pdf({ format: action.format ?? "Letter", landscape: action.landscape ?? false, scale: action.scale ?? 1, printBackground: true });
      (results.pdfs ??= []).push(dataUrl("application/pdf", pdf));
      return;
    }
    default: {
      const unknown: { type?: unknown } = action;
      throw new Error(`unknown action type ${JSON.stringify(unknown.type)}`);
    }
  }
}

/** Scrolls the window, or the element `selector` names, by one of its heights. */
async function scroll(page: Page, direction: "up" | "down", selector: string | undefined, timeout: number): Promise<void> {
  const sign = direction === "up" ? -1 : 1;
  if (selector === undefined) {
    await page.evaluate(`window.scrollBy(0, ${sign} * window.innerHeight)`);
    return;
  }
  const element = page.locator(selector).first();
  await element.waitFor({ state: "attached", timeout });
  await element.evaluate(`(el, sign) => el.scrollBy(0, sign * (el.clientHeight || window.innerHeight))`, sign);
}

/**
 * Runs a script in the page and returns its value: an expression or statements give their
 * completion value; a script with a top-level `return` runs as the body of an async function.
 */
async function evaluateScript(page: Page, script: string): Promise<unknown> {
  try {
    return await page.evaluate(script);
  } catch (error) {
    if (!(error instanceof Error) || !/Illegal return statement|await is only valid/.test(error.message)) throw error;
    return page.evaluate(`(async () => {\n${script}\n})()`);
  }
}

export function dataUrl(mediaType: string, bytes: Buffer): string {
  return `data:${mediaType};base64,${bytes.toString("base64")}`;
}

function actionError(action: Action, index: number, count: number, cause: unknown): ScrapelineError {
  if (cause instanceof ScrapelineError) return cause;
  const raw = cause instanceof Error ? cause.message : String(cause);
  const reason = raw.split("\n")[0]?.replace(/^\w+\.\w+: /, "") ?? raw;
  const target = "selector" in action && action.selector !== undefined ? ` ${JSON.stringify(action.selector)}` : "";
  const missing = /Timeout \d+ms exceeded/.test(reason) && target !== "" ? `no element matched${target} in time (${reason})` : reason;
  return new ScrapelineError("bad-content", `action ${index + 1} of ${count} (${action.type}${target}) failed: ${missing}`, { cause });
}
