import type { ParseOptions } from "../../../src/core/index.js";

/** A parse step's options with every default (what normalize gives a step that sets nothing). */
export function parseOptions(overrides: Partial<ParseOptions> = {}): ParseOptions {
  return {
    formats: [{ type: "markdown" }],
    onlyMainContent: true,
    maxAge: 0,
    waitFor: 0,
    mobile: false,
    skipTlsVerification: false,
    timeout: 30000,
    parsers: [{ type: "pdf" }],
    location: { country: "US" },
    removeBase64Images: true,
    blockAds: true,
    proxy: "auto",
    storeInCache: true,
    maxRows: 1000,
    maxFileSize: 50 * 1024 * 1024,
    ...overrides,
  };
}
