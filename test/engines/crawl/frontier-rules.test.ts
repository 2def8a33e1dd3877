import { describe, expect, it } from "vitest";
import { CrawlFrontier, MAX_QUERY_VARIANTS, robotsFromText } from "../../../src/engines/local/crawl/index.js";
import { frontier, START, urls } from "./frontier-helpers.js";
import { crawlRequest } from "./helpers.js";


describe("CrawlFrontier: include and exclude paths", () => {
  it("keeps only included paths, lets excludes win, and spares the start URL", () => {
    const f = frontier({ includePaths: ["^/blog/"], excludePaths: ["/drafts?/"] });
    f.discover(START, ["/blog/post", "/blog/draft/x", "/shop/item", "/blog/drafts/y", "/about"], 0);
    expect(urls(f)).toEqual([START, "http://site.test/blog/post"]);
    expect(f.skippedByRules).toBe(4);
  });

  it("hands the start URL out for its links only when include or exclude refuse it, and does not count it against limit", () => {
    const f = frontier({ includePaths: ["^/blog/"], limit: 1 });
    expect(f.next()).toEqual({ url: START, depth: 0, linksOnly: true });
    f.discover(START, ["/blog/a", "/blog/b"], 0);
    expect(f.next()).toEqual({ url: "http://site.test/blog/a", depth: 1 });
    expect(f.next()).toBeUndefined();
    const excluded = frontier({ excludePaths: ["^/$"] });
    expect(excluded.next()).toMatchObject({ url: START, linksOnly: true });
    expect(frontier({ includePaths: ["^/"] }).next()).toEqual({ url: START, depth: 0 });
  });

  it("tests the pathname only, unless regexOnFullURL", () => {
    const path = frontier({ excludePaths: ["lang=fr"] });
    path.discover(START, ["/page?lang=fr"], 0);
    expect(path.found).toBe(2);
    const full = frontier({ excludePaths: ["lang=fr"], regexOnFullURL: true });
    full.discover(START, ["/page?lang=fr", "/page?lang=en"], 0);
    expect(urls(full)).toEqual([START, "http://site.test/page?lang=en"]);
    const host = frontier({ includePaths: ["^http://site\\.test/docs"], regexOnFullURL: true });
    host.discover(START, ["/docs/a", "/blog/a"], 0);
    expect(host.found).toBe(2);
  });

  it("rejects an invalid pattern as invalid input", () => {
    expect(() => frontier({ includePaths: ["(unclosed"] })).toThrow(expect.objectContaining({ kind: "invalid-input", message: expect.stringContaining("includePaths") }));
    expect(() => frontier({ excludePaths: ["[z-a]"] })).toThrow(expect.objectContaining({ kind: "invalid-input" }));
  });
});

describe("CrawlFrontier: site scope", () => {
  it("keeps to the start path unless crawlEntireDomain", () => {
    const f = frontier({}, "http://site.test/docs/");
    f.discover("http://site.test/docs", ["/docs/a", "/docs", "/docsearch", "/blog/x", "/"], 0);
    // /docs is the start page /docs/ again (one page), so only /docs/a is new.
    expect(urls(f)).toEqual(["http://site.test/docs/", "http://site.test/docs/a"]);
    const file = frontier({}, "http://site.test/docs/intro.html");
    file.discover("http://site.test/docs/intro.html", ["setup.html", "/docs/api/x", "/blog"], 0);
    expect(urls(file)).toEqual(["http://site.test/docs/intro.html", "http://site.test/docs/setup.html", "http://site.test/docs/api/x"]);
    const whole = frontier({ crawlEntireDomain: true }, "http://site.test/docs/");
    whole.discover("http://site.test/docs", ["/blog/x", "/"], 0);
    expect(whole.found).toBe(3);
  });

  it("keeps to the start host; www is the same host", () => {
    const f = frontier();
    f.discover(START, ["http://www.site.test/w", "http://blog.site.test/b", "http://other.test/o", "http://evilsite.test/e"], 0);
    expect(urls(f)).toEqual([START, "http://www.site.test/w"]);
    expect(f.skippedByRules).toBe(3);
  });

  it("takes subdomains with allowSubdomains, but not look-alike hosts", () => {
    const f = frontier({ allowSubdomains: true });
    f.discover(START, ["http://blog.site.test/b", "http://a.b.site.test/c", "http://evilsite.test/e", "http://site.test.evil.test/x"], 0);
    expect(urls(f)).toEqual([START, "http://blog.site.test/b", "http://a.b.site.test/c"]);
    expect(f.discover("http://blog.site.test/b", ["/from-blog"], 1)).toBe(1);
  });

  it("takes one hop off-site with allowExternalLinks and never follows links from there", () => {
    const f = frontier({ allowExternalLinks: true });
    expect(f.discover(START, ["http://other.test/page", "http://blog.site.test/x"], 0)).toBe(2);
    expect(f.discover("http://other.test/page", ["http://other.test/deeper", "http://site.test/back"], 1)).toBe(0);
    expect(f.seed(["http://third.test/from-sitemap"])).toBe(0);
    expect(urls(f)).toEqual([START, "http://other.test/page", "http://blog.site.test/x"]);
    const closed = frontier();
    expect(closed.discover(START, ["http://other.test/page"], 0)).toBe(0);
  });

  it("does not apply the start-path rule to external links", () => {
    const f = frontier({ allowExternalLinks: true }, "http://site.test/docs");
    expect(f.discover("http://site.test/docs", ["http://other.test/anything", "/blog"], 0)).toBe(1);
  });
});

describe("CrawlFrontier: traps", () => {
  it("refuses a path segment repeated three times", () => {
    const f = frontier({ crawlEntireDomain: true });
    expect(f.discover(START, ["/a/b/a/b", "/a/b/a/b/a", "/x/x/x", "/2024/01/01"], 0)).toBe(2);
    expect(f.skippedByRules).toBe(2);
  });

  it("refuses URLs over 2048 characters", () => {
    const f = frontier();
    expect(f.discover(START, [`/${"a".repeat(2100)}`, `/${"b".repeat(1000)}`], 0)).toBe(1);
    expect(f.skippedByRules).toBe(1);
  });

  it(`allows ${MAX_QUERY_VARIANTS} query variants of one path, not more`, () => {
    const f = frontier();
    const variants = Array.from({ length: 25 }, (_, i) => `/cal?month=${i}`);
    expect(f.discover(START, ["/cal", ...variants, "/other?x=1"], 0)).toBe(1 + MAX_QUERY_VARIANTS + 1);
    expect(f.skippedByRules).toBe(25 - MAX_QUERY_VARIANTS);
    expect(f.sizes().queryPaths).toBe(2);
  });
});

describe("CrawlFrontier: robots", () => {
  const robots = robotsFromText("http://site.test", "User-agent: *\nDisallow: /private\n");

  it("skips and records what robots.txt disallows, for its own origin only", () => {
    const f = new CrawlFrontier(crawlRequest(START, { allowSubdomains: true }), { robots });
    f.seed([START]);
    f.discover(START, ["/private/a", "/private/b", "/private/a", "/public", "http://blog.site.test/private/x"], 0);
    expect(urls(f)).toEqual([START, "http://site.test/public", "http://blog.site.test/private/x"]);
    expect(f.skippedByRobots).toBe(3);
    expect(f.robotsBlocked).toEqual(["http://site.test/private/a", "http://site.test/private/b"]);
    expect(f.skippedByRules).toBe(0);
  });

  it("applies robots loaded later with useRobots, and can block the start URL", () => {
    const f = new CrawlFrontier(crawlRequest(START));
    f.useRobots(robotsFromText("http://site.test", "User-agent: *\nDisallow: /\n"));
    expect(f.seed([START])).toBe(0);
    expect(f.robotsBlocked).toEqual([START]);
  });

  it("keeps the blocked list bounded", () => {
    const f = new CrawlFrontier(crawlRequest(START), { robots });
    f.seed([START]);
    f.discover(START, Array.from({ length: 1500 }, (_, i) => `/private/${i}`), 0);
    expect(f.skippedByRobots).toBe(1500);
    expect(f.sizes().robotsBlocked).toBe(1000);
  });
});

describe("CrawlFrontier: sitemap modes", () => {
  it("never discovers from links with sitemap: only", () => {
    const f = frontier({ sitemap: "only" });
    expect(f.seed(["http://site.test/from-sitemap"])).toBe(1);
    expect(f.discover(START, ["/linked"], 0)).toBe(0);
    expect(frontier({ sitemap: "include" }).discover(START, ["/linked"], 0)).toBe(1);
    expect(frontier({ sitemap: "skip" }).discover(START, ["/linked"], 0)).toBe(1);
  });
});
