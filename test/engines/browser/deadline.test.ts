import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadPage } from "../../../src/engines/local/browser/index.js";
import { FixtureSite, htmlPage } from "../../helpers/site.js";
import { launchChromium } from "../../ui/browser.js";
import { scrapeOptions } from "./fixtures.js";

const site = new FixtureSite().page("/", htmlPage("Home", "<p>Hello</p>"));
let browser: Browser;
const check = async (url: URL) => ({ url, hostname: url.hostname, addresses: [url.hostname], literal: true });

beforeAll(async () => {
  await site.start();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await site.stop();
});

/** The browser, with `newContext` answering only when `release` is called. */
function slowToOpen(): { browser: Browser; release: () => void; opened: Promise<BrowserContext> } {
  let release = () => undefined as void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let opened: (context: BrowserContext) => void = () => undefined;
  const openedLate = new Promise<BrowserContext>((resolve) => (opened = resolve));
  const newContext = async (...args: Parameters<Browser["newContext"]>) => {
    const context = await browser.newContext(...args);
    await released;
    opened(context);
    return context;
  };
  return { browser: { newContext } as unknown as Browser, release, opened: openedLate };
}

describe("browser work that the browser never answers", () => {
  it("a page whose context opens after its deadline fails at the deadline, and the late context is closed", async () => {
    const slow = slowToOpen();
    const loading = loadPage(slow.browser, { url: site.url, options: scrapeOptions({ timeout: 1000 }), check });
    await expect(loading).rejects.toMatchObject({ kind: "timeout" });
    slow.release();
    const context = await slow.opened;
    if (browser.contexts().includes(context)) await new Promise((resolve) => context.once("close", resolve));
    expect(browser.contexts()).not.toContain(context);
  });

  it("a stop while the page is being created ends the load, though the browser never answers", async () => {
    const stop = new AbortController();
    // As Chromium does when a context is closed while it creates a page: newPage stays pending for good.
    const stuck = {
      newContext: async (...args: Parameters<Browser["newContext"]>) => {
        const context = await browser.newContext(...args);
        return Object.assign(context, { newPage: () => (stop.abort(), new Promise(() => undefined)) });
      },
    } as unknown as Browser;
    const loading = loadPage(stuck, { url: site.url, options: scrapeOptions({ timeout: 300_000 }), check, signal: stop.signal });
    await expect(loading).rejects.toMatchObject({ kind: "cancelled" });
  });
});
