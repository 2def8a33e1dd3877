import { describe, expect, it } from "vitest";
import { CrawlFrontier, MAX_QUERY_VARIANTS, robotsFromText } from "../../../src/engines/local/crawl/index.js";
import { drain, frontier, START, urls } from "./frontier-helpers.js";
import { crawlRequest } from "./helpers.js";


describe("CrawlFrontier: order, dedupe and counters", () => {
  it("hands pages out breadth-first and counts them", () => {
    const f = frontier();
    expect(f.found).toBe(1);
    expect(f.queued).toBe(1);
    const root = f.next();
    expect(root).toEqual({ url: START, depth: 0 });
    expect(f.queued).toBe(0);
    f.discover(START, ["/a", "/b"], 0);
    f.discover("http://site.test/a", ["/a/1"], 1);
    f.discover("http://site.test/b", ["/b/1"], 1);
    expect(f.queued).toBe(4);
    expect(drain(f)).toEqual([
      { url: "http://site.test/a", depth: 1 },
      { url: "http://site.test/b", depth: 1 },
      { url: "http://site.test/a/1", depth: 2 },
      { url: "http://site.test/b/1", depth: 2 },
    ]);
    expect(f.found).toBe(5);
    expect(f.next()).toBeUndefined();
  });

  it("deduplicates on the normalized URL", () => {
    const f = frontier();
    expect(f.discover(START, ["/a/", "/a", "/a#top", "HTTP://SITE.TEST:80/a", "a", "/", "#frag", "mailto:x@site.test", "javascript:void(0)"], 0)).toBe(1);
    expect(f.found).toBe(2);
    expect(f.skippedByRules).toBe(0);
  });

  it("treats http/https and www as one page with deduplicateSimilarURLs, and not without", () => {
    const similar = frontier();
    similar.discover(START, ["https://site.test/p", "http://www.site.test/p", "http://site.test/p"], 0);
    expect(similar.found).toBe(2);
    const strict = frontier({ deduplicateSimilarURLs: false });
    strict.discover(START, ["https://site.test/p", "http://www.site.test/p", "http://site.test/p"], 0);
    expect(strict.found).toBe(4);
  });

  it("drops query strings with ignoreQueryParameters", () => {
    const f = frontier({ ignoreQueryParameters: true });
    f.discover(START, ["/p?a=1", "/p?a=2", "/p"], 0);
    expect(urls(f)).toEqual([START, "http://site.test/p"]);
    const keep = frontier();
    keep.discover(START, ["/p?a=1", "/p?a=2", "/p"], 0);
    expect(keep.found).toBe(4);
  });

  it("never hands out a page marked done, even if it was still queued", () => {
    const f = frontier();
    f.discover(START, ["/a", "/b"], 0);
    f.done("http://site.test/a/");
    expect(f.queued).toBe(2);
    expect(urls(f)).toEqual([START, "http://site.test/b"]);
  });
});

describe("CrawlFrontier: limit", () => {
  it("accepts at most `limit` pages, queue and done together", () => {
    const f = frontier({ limit: 5 });
    expect(f.discover(START, Array.from({ length: 100 }, (_, i) => `/p${i}`), 0)).toBe(4);
    expect(f.full).toBe(true);
    expect(f.discover("http://site.test/p1", ["/more"], 1)).toBe(0);
    expect(f.seed(["http://site.test/seed"])).toBe(0);
    expect(drain(f)).toHaveLength(5);
    expect(f.discover("http://site.test/p2", ["/later"], 1)).toBe(0);
    expect(f.found).toBe(5);
  });

  it("holds no more than `limit` of a link farm of 100k URLs", () => {
    const f = frontier({ limit: 2500, crawlEntireDomain: true });
    for (let page = 0; page < 100; page++) {
      const from = page === 0 ? START : `http://site.test/farm/${page}`;
      f.discover(from, Array.from({ length: 1000 }, (_, i) => `/farm/${page * 1000 + i + 1}?s=${i}`), 1);
      const sizes = f.sizes();
      expect(Math.max(sizes.pages, sizes.queue, sizes.queryPaths)).toBeLessThanOrEqual(2500);
    }
    expect(f.found).toBe(2500);
    expect(drain(f)).toHaveLength(2500);
    expect(f.sizes().queue).toBe(0);
  });
});

describe("CrawlFrontier: depth", () => {
  it("refuses links deeper than maxDiscoveryDepth; seeds are depth 0", () => {
    const f = frontier({ maxDiscoveryDepth: 1 });
    expect(f.seed(["http://site.test/from-sitemap"])).toBe(1);
    expect(f.discover(START, ["/one"], 0)).toBe(1);
    expect(f.discover("http://site.test/one", ["/two"], 1)).toBe(0);
    expect(f.skippedByRules).toBe(1);
    expect(drain(f).map((e) => e.depth)).toEqual([0, 0, 1]);
  });

  it("takes a link refused as too deep when it turns up again at a depth allowed", () => {
    const f = frontier({ maxDiscoveryDepth: 1 });
    expect(f.discover(START, ["/one"], 0)).toBe(1);
    expect(f.discover("http://site.test/one", ["http://site.test/two"], 1)).toBe(0);
    expect(f.discover(START, ["http://site.test/two", "http://site.test/one"], 0)).toBe(1);
    expect(urls(f)).toEqual([START, "http://site.test/one", "http://site.test/two"]);
  });

  it("with maxDiscoveryDepth 0 keeps only the seeds", () => {
    const f = frontier({ maxDiscoveryDepth: 0 });
    expect(f.discover(START, ["/one"], 0)).toBe(0);
    expect(urls(f)).toEqual([START]);
  });

  it("without maxDiscoveryDepth goes as deep as links go", () => {
    const f = frontier();
    expect(f.discover("http://site.test/x", ["/deep"], 50)).toBe(1);
  });
});

describe("CrawlFrontier: snapshot and restore", () => {
  it("round-trips through JSON and continues where it left off", () => {
    const robots = robotsFromText("http://site.test", "User-agent: *\nDisallow: /private\n");
    const f = new CrawlFrontier(crawlRequest(START), { robots });
    f.seed([START]);
    f.discover(START, ["/a", "/b", "/c", "/cal?m=1", "http://other.test/", "/private/1"], 0);
    f.done(f.next()!.url); // START
    const inFlight = f.next()!; // /a, interrupted before done
    f.done("http://site.test/c"); // finished out of order
    const saved = JSON.parse(JSON.stringify(f.snapshot()));

    const resumed = new CrawlFrontier(crawlRequest(START), { robots });
    resumed.restore(saved);
    expect(resumed.found).toBe(5);
    expect(resumed.skippedByRules).toBe(1);
    expect(resumed.skippedByRobots).toBe(1);
    expect(resumed.robotsBlocked).toEqual(["http://site.test/private/1"]);
    expect(resumed.discover("http://site.test/b", ["/a", "/c", "/d"], 1)).toBe(1);
    expect(drain(resumed)).toEqual([inFlight, { url: "http://site.test/b", depth: 1 }, { url: "http://site.test/cal?m=1", depth: 1 }, { url: "http://site.test/d", depth: 2 }]);
  });

  it("restores the query-variant counts", () => {
    const f = frontier();
    f.discover(START, Array.from({ length: MAX_QUERY_VARIANTS }, (_, i) => `/cal?m=${i}`), 0);
    const resumed = new CrawlFrontier(crawlRequest(START));
    resumed.restore(JSON.parse(JSON.stringify(f.snapshot())));
    expect(resumed.discover(START, ["/cal?m=99"], 0)).toBe(0);
  });

  it("refuses a corrupt state and a start URL it cannot crawl", () => {
    const state = frontier().snapshot();
    state.pages.push(["javascript:alert(1)", 1, "queued"]);
    expect(() => new CrawlFrontier(crawlRequest(START)).restore(state)).toThrow(expect.objectContaining({ kind: "invalid-input" }));
    expect(() => new CrawlFrontier(crawlRequest("ftp://site.test/"))).toThrow(expect.objectContaining({ kind: "invalid-input" }));
  });

  it("refuses the state of another crawl", () => {
    const other = frontier({}, "http://other.test/").snapshot();
    expect(() => new CrawlFrontier(crawlRequest(START)).restore(other)).toThrow(expect.objectContaining({ kind: "invalid-input" }));
  });
});
