import pLimit, { type LimitFunction } from "p-limit";
import type { Browser } from "playwright-core";
import { ScrapelineError } from "../../../core/index.js";
import { findChromium } from "./chromium-path.js";
import { ProxyGate, type TargetCheck } from "./proxy-gate.js";

/** A running browser server's address (ws://…) to use instead of starting Chromium. */
export const BROWSER_ENDPOINT_VARIABLE = "SCRAPELINE_BROWSER_ENDPOINT";

/** Flags that work as root on a machine without outside network, and keep Chromium from phoning home. */
export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
  // WebRTC would otherwise open UDP sockets that no proxy sees.
  "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
  "--webrtc-ip-handling-policy=disable_non_proxied_udp",
];

export interface BrowserHostOptions {
  check: TargetCheck;
  /** Pages open at once (default 2). */
  concurrency?: number;
  /** The environment SCRAPELINE_CHROMIUM and SCRAPELINE_BROWSER_ENDPOINT are read from. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Launch deadline in milliseconds (default 30 s). */
  launchTimeoutMs?: number;
}

/**
 * One headless Chromium per engine, launched on first need, with a bounded number of pages at a
 * time. playwright-core is imported only then, so plain-HTTP runs never load it. Every request of
 * the browser goes through a proxy gate; `close()` ends the browser and the gate.
 */
export class BrowserHost {
  private readonly limit: LimitFunction;
  private launching: Promise<Browser> | undefined;
  private defaultGate: ProxyGate | undefined;
  private closed = false;

  constructor(private readonly options: BrowserHostOptions) {
    this.limit = pLimit(Math.max(1, options.concurrency ?? 2));
  }

  /** The private-network check every browser request passes. */
  get check(): TargetCheck {
    return this.options.check;
  }

  /** Runs `work` with the browser once a page slot is free; a stop while the browser starts ends the wait (the launch goes on for others). */
  withBrowser<T>(work: (browser: Browser) => Promise<T>, signal?: AbortSignal): Promise<T> {
    return this.limit(async () => {
      signal?.throwIfAborted();
      return work(await untilAborted(this.browser(), signal));
    });
  }

  /** The browser itself, outside the page slots: for pages that stay open (live pages) and are bounded by their owner. */
  acquire(): Promise<Browser> {
    return this.browser();
  }

  private browser(): Promise<Browser> {
    if (this.closed) return Promise.reject(new ScrapelineError("internal", "the browser was used after the engine closed"));
    this.launching ??= this.launch().catch((error: unknown) => {
      this.launching = undefined;
      throw error;
    });
    return this.launching;
  }

  private async launch(): Promise<Browser> {
    const endpoint = (this.options.env ?? process.env)[BROWSER_ENDPOINT_VARIABLE]?.trim();
    const browser = endpoint ? await this.connect(endpoint) : await this.start();
    browser.on("disconnected", () => {
      this.launching = undefined;
    });
    if (this.closed) {
      await browser.close().catch(() => undefined);
      throw new ScrapelineError("cancelled", "the engine closed while the browser was starting");
    }
    return browser;
  }

  /**
   * A browser server already running (Playwright's launchServer): each page still opens in a
   * context of its own behind its own proxy gate; close() closes this engine's contexts and
   * disconnects, leaving the browser to its owner.
   */
  private async connect(endpoint: string): Promise<Browser> {
    const { chromium } = await import("playwright-core");
    try {
      return await chromium.connect(endpoint, { timeout: this.options.launchTimeoutMs ?? 30_000 });
    } catch (cause) {
      const message = cause instanceof Error ? cause.message.split("\n")[0] : String(cause);
      throw new ScrapelineError("unsupported", `could not reach the browser at ${BROWSER_ENDPOINT_VARIABLE} (${endpoint}): ${message}`, { cause });
    }
  }

  private async start(): Promise<Browser> {
    const executablePath = findChromium(this.options.env);
    const { chromium } = await import("playwright-core");
    // Traffic outside any page's context (there should be none) meets the gate too.
    this.defaultGate ??= await ProxyGate.start({ check: this.options.check });
    let browser: Browser;
    try {
      browser = await chromium.launch({
        executablePath,
        headless: true,
        args: CHROMIUM_FLAGS,
        proxy: { server: this.defaultGate.url },
        // The CLI decides what Ctrl-C means; the engine closes the browser in close().
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
        timeout: this.options.launchTimeoutMs ?? 30_000,
      });
    } catch (cause) {
      const message = cause instanceof Error ? cause.message.split("\n")[0] : String(cause);
      throw new ScrapelineError("unsupported", `could not start Chromium (${executablePath}): ${message}`, { cause });
    }
    return browser;
  }

  /** Closes the browser (waiting for a launch under way) and the proxy gate. */
  async close(): Promise<void> {
    this.closed = true;
    this.limit.clearQueue();
    const launching = this.launching;
    this.launching = undefined;
    const browser = await launching?.catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await this.defaultGate?.close();
    this.defaultGate = undefined;
  }
}

/** `promise`, or the signal's reason as soon as it aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  let onAbort = (): void => undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  return Promise.race([promise, aborted]).finally(() => signal.removeEventListener("abort", onAbort));
}
