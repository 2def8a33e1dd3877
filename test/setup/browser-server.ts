import type { BrowserServer } from "playwright-core";
import { BROWSER_ENDPOINT_VARIABLE, CHROMIUM_FLAGS } from "../../src/engines/local/browser/launcher.js";
import { findChromium } from "../../src/engines/local/browser/chromium-path.js";

/**
 * One Chromium for the whole suite: engines in the test processes, and the CLI and servers they
 * start, connect to it through SCRAPELINE_BROWSER_ENDPOINT instead of each starting its own (each
 * page still gets a context of its own). A test about the browser process itself sets the
 * variable to "" for what it starts. An endpoint given from outside is used as it is.
 */
export default async function startSharedBrowser(): Promise<(() => Promise<void>) | undefined> {
  if (process.env[BROWSER_ENDPOINT_VARIABLE] !== undefined) return undefined;
  const { chromium } = await import("playwright-core");
  let server: BrowserServer;
  try {
    server = await chromium.launchServer({ executablePath: findChromium(), headless: true, args: CHROMIUM_FLAGS, handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false });
  } catch {
    // No Chromium here: the tests that need one start it themselves and say what is missing.
    return undefined;
  }
  process.env[BROWSER_ENDPOINT_VARIABLE] = server.wsEndpoint();
  return async () => {
    delete process.env[BROWSER_ENDPOINT_VARIABLE];
    await server.close();
  };
}
