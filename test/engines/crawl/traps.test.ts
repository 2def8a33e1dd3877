import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CrawlFrontier, MAX_QUERY_VARIANTS } from "../../../src/engines/local/crawl/index.js";
import { crawlRequest, paths, sendLinks, startSite, walk, type Site } from "./helpers.js";

let site: Site;

beforeAll(async () => {
  site = await startSite(({ path, url }, res) => {
    if (path === "/cal") {
      const month = Number(url.searchParams.get("month") ?? 0);
      return sendLinks(res, [`/cal?month=${month + 1}`, `/cal?month=${month - 1}`, `/cal?month=${month}&view=week`]);
    }
    if (path === "/session") {
      return sendLinks(res, [`/session?sid=${Math.random().toString(36).slice(2)}`, "/session"]);
    }
    const farm = /^\/farm\/(\d+)$/.exec(path);
    if (farm) {
      const n = Number(farm[1]);
      return sendLinks(res, Array.from({ length: 1000 }, (_, i) => `/farm/${n * 1000 + i + 1}`));
    }
    if (path.startsWith("/loop/") && path.endsWith("/page.html")) return sendLinks(res, ["a/b/page.html"]);
    const tree = /^\/tree((?:\/\d)*)$/.exec(path);
    if (tree) return sendLinks(res, [`${path}/1`, `${path}/2`]);
    res.writeHead(404).end();
  });
});
afterAll(() => site.close());

describe("crawler traps on a live site", () => {
  it("stops an infinite calendar at the query-variant cap", async () => {
    site.requests.length = 0;
    const frontier = new CrawlFrontier(crawlRequest(site.url("/cal?month=0")));
    frontier.seed([site.url("/cal?month=0")]);
    const fetched = await walk(site.gate, frontier, 1000);
    expect(fetched.length).toBe(MAX_QUERY_VARIANTS);
    expect(site.requests.length).toBe(MAX_QUERY_VARIANTS);
    expect(frontier.queued).toBe(0);
    expect(frontier.skippedByRules).toBeGreaterThan(0);
    expect(frontier.sizes().queryPaths).toBe(1);
  });

  it("stops session ids in the query string the same way", async () => {
    const frontier = new CrawlFrontier(crawlRequest(site.url("/session")));
    frontier.seed([site.url("/session")]);
    const fetched = await walk(site.gate, frontier, 1000);
    expect(fetched.length).toBe(1 + MAX_QUERY_VARIANTS);
  });

  it("keeps a link farm within limit, in pages fetched and in memory", async () => {
    site.requests.length = 0;
    const limit = 300;
    const frontier = new CrawlFrontier(crawlRequest(site.url("/farm/0"), { crawlEntireDomain: true, limit }));
    frontier.seed([site.url("/farm/0")]);
    let peak = 0;
    const original = frontier.discover.bind(frontier);
    frontier.discover = (from, links, depth) => {
      const accepted = original(from, links, depth);
      const sizes = frontier.sizes();
      peak = Math.max(peak, sizes.pages, sizes.queue, sizes.queryPaths, sizes.robotsBlocked);
      return accepted;
    };
    const fetched = await walk(site.gate, frontier);
    expect(fetched).toHaveLength(limit);
    expect(new Set(fetched).size).toBe(limit);
    expect(site.requests).toHaveLength(limit);
    expect(frontier.found).toBe(limit);
    expect(peak).toBeLessThanOrEqual(limit);
    expect(frontier.sizes()).toEqual({ pages: limit, queue: 0, queryPaths: 0, robotsBlocked: 0 });
    // Breadth-first: the first page's links come before any of their own links.
    expect(paths(fetched.slice(0, 3))).toEqual(["/farm/0", "/farm/1", "/farm/2"]);
  });

  it("stops a relative-link loop by its repeated path segments", async () => {
    const frontier = new CrawlFrontier(crawlRequest(site.url("/loop/page.html")));
    frontier.seed([site.url("/loop/page.html")]);
    const fetched = await walk(site.gate, frontier, 1000);
    expect(paths(fetched)).toEqual(["/loop/page.html", "/loop/a/b/page.html", "/loop/a/b/a/b/page.html"]);
    expect(frontier.skippedByRules).toBe(1);
  });

  it("stops at maxDiscoveryDepth", async () => {
    const frontier = new CrawlFrontier(crawlRequest(site.url("/tree"), { maxDiscoveryDepth: 2 }));
    frontier.seed([site.url("/tree")]);
    const fetched = paths(await walk(site.gate, frontier));
    expect(fetched).toEqual(["/tree", "/tree/1", "/tree/2", "/tree/1/1", "/tree/1/2", "/tree/2/1", "/tree/2/2"]);
  });

  it("continues an interrupted crawl from its snapshot: no page twice, none lost", async () => {
    const request = crawlRequest(site.url("/tree"), { maxDiscoveryDepth: 4 });
    const whole = new CrawlFrontier(request);
    whole.seed([request.url]);
    const all = await walk(site.gate, whole);

    const first = new CrawlFrontier(request);
    first.seed([request.url]);
    const before = await walk(site.gate, first, 9);
    const interrupted = first.next()!; // handed out, never finished
    const state = JSON.stringify(first.snapshot());

    const second = new CrawlFrontier(request);
    second.restore(JSON.parse(state));
    const after = await walk(site.gate, second);
    expect(after[0]).toBe(interrupted.url);
    expect([...before, ...after].sort()).toEqual([...all].sort());
    expect(new Set([...before, ...after]).size).toBe(all.length);
  });
});
