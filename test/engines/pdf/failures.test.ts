import { afterEach, describe, expect, it, vi } from "vitest";
import { isScrapelineError, ScrapelineError } from "../../../src/core/index.js";
import { pdfToMarkdown } from "../../../src/engines/local/pdf/index.js";
import { makePdf } from "./make-pdf.js";

const valid = makePdf([["Page one text"], ["Page two text"], ["Page three text"]], { title: "T" });

async function failure(body: Uint8Array, options?: Parameters<typeof pdfToMarkdown>[1]): Promise<unknown> {
  try {
    await pdfToMarkdown(body, options);
  } catch (error) {
    return error;
  }
  throw new Error("expected pdfToMarkdown to fail");
}

describe("pdfToMarkdown on bad input", () => {
  const consoleCalls = () =>
    (["log", "info", "warn", "error", "debug"] as const).map((method) => vi.spyOn(console, method).mockImplementation(() => undefined));
  afterEach(() => vi.restoreAllMocks());

  it("rejects garbage bytes as bad-content, quietly", async () => {
    const spies = consoleCalls();
    const garbage = Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256);
    const error = await failure(garbage);
    expect(isScrapelineError(error, "bad-content")).toBe(true);
    expect((error as Error).message).toMatch(/not a valid PDF/);
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });

  it("rejects an HTML page served as a PDF", async () => {
    const error = await failure(new TextEncoder().encode("<!doctype html><p>Not found</p>"));
    expect(isScrapelineError(error, "bad-content")).toBe(true);
  });

  it("rejects empty input", async () => {
    const error = await failure(new Uint8Array(0));
    expect(isScrapelineError(error, "bad-content")).toBe(true);
    expect((error as Error).message).toMatch(/empty/);
  });

  it("rejects a PDF cut in half (no trailer, no cross-reference table)", async () => {
    const spies = consoleCalls();
    const error = await failure(valid.subarray(0, Math.floor(valid.length / 2)));
    expect(isScrapelineError(error, "bad-content")).toBe(true);
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });

  it("recovers a PDF that lost only its last bytes", async () => {
    const { markdown, numPages } = await pdfToMarkdown(valid.subarray(0, valid.length - 6));
    expect(numPages).toBe(3);
    expect(markdown).toBe("Page one text\n\nPage two text\n\nPage three text\n");
  });

  it("rejects an encrypted PDF that needs a password, saying so", async () => {
    const error = await failure(makePdf([["secret"]], { encrypted: true }));
    expect(isScrapelineError(error, "bad-content")).toBe(true);
    expect((error as Error).message).toMatch(/encrypted.*password/);
  });

  it("rejects a maxPages that is not a whole number from 1", async () => {
    for (const maxPages of [0, -1, 1.5, Number.NaN]) {
      expect(isScrapelineError(await failure(valid, { maxPages }), "invalid-input")).toBe(true);
    }
  });

  it("stops when the signal is aborted", async () => {
    const before = new AbortController();
    before.abort();
    expect(isScrapelineError(await failure(valid, { signal: before.signal }), "cancelled")).toBe(true);

    const during = new AbortController();
    const pending = failure(valid, { signal: during.signal });
    during.abort();
    expect(isScrapelineError(await pending, "cancelled")).toBe(true);
  });

  it("lets a timer abort a long document between pages", async () => {
    const long = makePdf(Array.from({ length: 150 }, (_, i) => Array.from({ length: 30 }, (_, j) => `Page ${i} line ${j} of a long document`)));
    const controller = new AbortController();
    const pending = failure(long, { signal: controller.signal });
    setTimeout(() => controller.abort(), 0);
    expect(isScrapelineError(await pending, "cancelled")).toBe(true);
  });

  it("passes on a ScrapelineError given as the abort reason", async () => {
    const controller = new AbortController();
    const reason = new ScrapelineError("timeout", "step deadline passed");
    controller.abort(reason);
    expect(await failure(valid, { signal: controller.signal })).toBe(reason);
  });
});
