import { describe, expect, it } from "vitest";
import { findChromium } from "../../../src/engines/local/browser/index.js";
import { LocalEngine } from "../../../src/engines/local/index.js";
import { failure } from "../fetch/servers.js";
import { scrapeOptions } from "./fixtures.js";

describe("finding Chromium", () => {
  it("takes SCRAPELINE_CHROMIUM first, else the first system path that exists", () => {
    expect(findChromium({ SCRAPELINE_CHROMIUM: process.execPath }, [])).toBe(process.execPath);
    expect(findChromium({}, ["/nonexistent/chrome", process.execPath])).toBe(process.execPath);
  });

  it("says how to install it when there is none", () => {
    expect(() => findChromium({}, ["/nonexistent/chromium"])).toThrow(/apt-get install chromium/);
    expect(() => findChromium({ SCRAPELINE_CHROMIUM: "/nonexistent/chromium" })).toThrow(/SCRAPELINE_CHROMIUM is "\/nonexistent\/chromium"/);
  });

  it("fails a page that needs the browser with an unsupported error, before any request", async () => {
    const engine = new LocalEngine({ allowPrivateNetwork: true, env: { SCRAPELINE_CHROMIUM: "/nonexistent/chromium" } });
    try {
      const error = await failure(engine.scrape("http://127.0.0.1:9/", scrapeOptions({ waitFor: 1 })), "unsupported");
      expect(error.message).toContain("apt-get install chromium");
    } finally {
      await engine.close();
    }
  });
});
