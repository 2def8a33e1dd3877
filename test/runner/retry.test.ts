import { describe, expect, it } from "vitest";
import { parseRetryAfter, ScrapelineError } from "../../src/core/index.js";
import { backoffMs, classify } from "../../src/runner/retry.js";
import { globToRegExp, matchesGlob, selectUrls } from "../../src/runner/url-source.js";
import { Budget } from "../../src/runner/budget.js";

describe("classify", () => {
  it.each([
    ["network", undefined, "retry"],
    ["timeout", undefined, "retry"],
    ["http-status", 503, "retry"],
    ["http-status", 500, "retry"],
    ["http-status", 408, "retry"],
    ["http-status", 425, "retry"],
    ["http-status", 429, "wait"],
    ["rate-limited", 429, "wait"],
    ["http-status", 404, "fail"],
    ["http-status", 403, "fail"],
    ["http-status", 302, "fail"], // a redirect loop or too many redirects
    ["invalid-input", undefined, "fail"],
    ["budget", undefined, "fail"],
    ["blocked", undefined, "fail"],
    // A challenge answered 503 or 429 is the site's anti-bot wall: the same way gets the same wall.
    ["blocked-page", 503, "fail"],
    ["blocked-page", 429, "fail"],
    ["too-large", undefined, "fail"],
    ["unsupported", undefined, "fail"],
  ] as const)("%s %s → %s", (kind, status, action) => {
    expect(classify(new ScrapelineError(kind, "x", status ? { status } : {})).action).toBe(action);
  });

  it("fails plain errors (bugs are not retried)", () => {
    expect(classify(new Error("bug")).action).toBe("fail");
  });

  it("carries the Retry-After of a 429", () => {
    expect(classify(new ScrapelineError("rate-limited", "x", { status: 429, retryAfterMs: 3000 }))).toMatchObject({ action: "wait", waitMs: 3000 });
  });
});

describe("backoffMs", () => {
  const policy = { attempts: 5, initialDelayMs: 100, maxDelayMs: 1000 };
  it("grows exponentially up to the cap, with full jitter", () => {
    expect([1, 2, 3, 4, 5].map((a) => backoffMs(policy, a, () => 0.999999))).toEqual([99, 199, 399, 799, 999]);
    expect(backoffMs(policy, 3, () => 0)).toBe(0);
  });
});

describe("parseRetryAfter", () => {
  it("reads seconds, HTTP dates and the service's message form", () => {
    const now = Date.parse("2026-11-22T10:00:00Z");
    expect(parseRetryAfter("7", now)).toBe(7000);
    expect(parseRetryAfter("Sun, 22 Nov 2026 10:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("Rate limit exceeded. ... please retry after 12s, resets at ...", now)).toBe(12_000);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

describe("url sources", () => {
  it("matches globs on paths and whole URLs", () => {
    expect(matchesGlob("https://e.com/blog/2024/post", "/blog/**")).toBe(true);
    expect(matchesGlob("https://e.com/about", "/blog/**")).toBe(false);
    expect(matchesGlob("https://nodejs.org/api/stream.html", "**/api/stream*.html")).toBe(true);
    expect(matchesGlob("https://nodejs.org/api/fs.html", "**/api/stream*.html")).toBe(false);
    expect(matchesGlob("https://e.com/a/b", "https://e.com/*")).toBe(false);
    expect(globToRegExp("/a?c").test("/abc")).toBe(true);
  });

  it("matches character sets and negated sets, one character each", () => {
    expect(matchesGlob("https://e.com/docs/7", "/docs/[0-9]")).toBe(true);
    expect(matchesGlob("https://e.com/docs/x", "/docs/[0-9]")).toBe(false);
    expect(matchesGlob("https://e.com/docs/12", "/docs/[0-9]")).toBe(false);
    expect(matchesGlob("https://e.com/docs/x", "/docs/[!0-9]")).toBe(true);
    expect(matchesGlob("https://e.com/docs/7", "/docs/[!0-9]")).toBe(false);
    expect(globToRegExp("/a[b]]").test("/ab]")).toBe(true);
    expect(globToRegExp("/a[").test("/a[")).toBe(true);
  });

  it("selects with include, exclude and limit, deduplicated in order", () => {
    const urls = ["https://e.com/blog/1", "https://e.com/blog/2", "https://e.com/blog/1", "https://e.com/about", "https://e.com/blog/draft", "https://e.com/blog/3"];
    expect(selectUrls(urls, { from: "x", include: ["/blog/*"], exclude: ["/blog/draft"], limit: 3 })).toEqual(["https://e.com/blog/1", "https://e.com/blog/2", "https://e.com/blog/3"]);
  });
});

describe("Budget", () => {
  it("refuses a request whose estimate would pass the limit, counting reservations", () => {
    const budget = new Budget(3, 1);
    expect(budget.reserve(1)).toBe(true);
    expect(budget.reserve(1)).toBe(true);
    expect(budget.reserve(1)).toBe(false);
    expect(budget.exhausted).toBe(true);
    budget.settle(1, 0);
    expect(budget.total).toBe(1);
  });

  it("has no limit when maxCredits is not set", () => {
    const budget = new Budget(undefined, 0);
    for (let i = 0; i < 1000; i++) expect(budget.reserve(5)).toBe(true);
  });
});
