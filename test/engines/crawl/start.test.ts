import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCrawl } from "../../../src/engines/local/crawl/index.js";
import { createFetchGate } from "../../../src/engines/local/fetch/index.js";
import { startRawServer } from "../fetch/servers.js";
import { crawlRequest, paths, sendLinks, startSite, walk, type Site } from "./helpers.js";

let site: Site;
const XML = { "content-type": "application/xml" };

beforeAll(async () => {
  site = await startSite(({ host, path }, res) => {
    const u = (p: string) => site.url(p, host);
    if (host === "down.test") return void res.writeHead(path === "/robots.txt" ? 503 : 200).end("");
    if (host === "closed.test") return path === "/robots.txt" ? void res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nDisallow: /\n") : sendLinks(res, []);
    if (host === "members.test") return path === "/robots.txt" ? void res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nDisallow: /members\n") : sendLinks(res, []);
    if (host === "bare.test") return path === "/" ? sendLinks(res, ["/a"]) : path === "/a" ? sendLinks(res, []) : void res.writeHead(404).end();
    switch (path) {
      case "/robots.txt":
        return void res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nDisallow: /private\nCrawl-delay: 2\nSitemap: /sm-index.xml\n");
      case "/sm-index.xml":
        return void res.writeHead(200, XML).end(`<sitemapindex><sitemap><loc>${u("/sm-pages.xml")}</loc></sitemap></sitemapindex>`);
      case "/sm-pages.xml": {
        const locs = ["/products/1", "/products/2", "/private/secret", "http://other.test/x", "/"].map((p) => (p.startsWith("http") ? p : u(p)));
        return void res.writeHead(200, XML).end(`<urlset>${locs.map((l) => `<url><loc>${l}</loc></url>`).join("")}</urlset>`);
      }
      case "/sitemap.xml":
        return void res.writeHead(200, XML).end(`<urlset><url><loc>${u("/from-default")}</loc></url></urlset>`);
      case "/":
        return sendLinks(res, ["/about", "/private/p", "/products/1"]);
      default:
        return sendLinks(res, []);
    }
  });
});
afterAll(() => site.close());

describe("startCrawl", () => {
  it("reads robots.txt and the sitemaps, and seeds the start URL and sitemap URLs at depth 0", async () => {
    const start = await startCrawl(site.gate, crawlRequest(site.url("/", "shop.test")));
    expect(start.sitemaps).toEqual([site.url("/sm-index.xml", "shop.test"), site.url("/sm-pages.xml", "shop.test"), site.url("/sitemap.xml", "shop.test")]);
    expect(start.delayMs).toBe(2000);
    expect(start.warnings).toEqual([]);
    const { frontier } = start;
    expect(frontier.robotsBlocked).toEqual([site.url("/private/secret", "shop.test")]);
    expect(frontier.skippedByRules).toBe(1); // other.test
    const seeds = [];
    for (let e = frontier.next(); e; e = frontier.next()) seeds.push([new URL(e.url).pathname, e.depth]);
    expect(seeds).toEqual([["/", 0], ["/products/1", 0], ["/products/2", 0], ["/from-default", 0]]);
  });

  it("lets the request's delay win over Crawl-delay", async () => {
    expect((await startCrawl(site.gate, crawlRequest(site.url("/", "shop.test"), { delay: 0.5 }))).delayMs).toBe(500);
    expect((await startCrawl(site.gate, crawlRequest(site.url("/", "bare.test")))).delayMs).toBe(0);
  });

  it("reads no sitemap with sitemap: skip", async () => {
    site.requests.length = 0;
    const start = await startCrawl(site.gate, crawlRequest(site.url("/", "shop.test"), { sitemap: "skip" }));
    expect(site.requests).toEqual(["shop.test/robots.txt"]);
    expect(start.frontier.found).toBe(1);
    const fetched = paths(await walk(site.gate, start.frontier));
    expect(fetched).toEqual(["/", "/about", "/products/1"]);
  });

  it("crawls the sitemap URLs alone with sitemap: only", async () => {
    const start = await startCrawl(site.gate, crawlRequest(site.url("/products", "shop.test"), { sitemap: "only" }));
    const fetched = paths(await walk(site.gate, start.frontier));
    expect(fetched).toEqual(["/products/1", "/products/2"]);
  });

  it("falls back to the start URL when sitemap: only finds nothing, and says so", async () => {
    const start = await startCrawl(site.gate, crawlRequest(site.url("/", "bare.test"), { sitemap: "only" }));
    expect(start.warnings).toEqual([expect.stringMatching(/no usable URL in the sitemaps/)]);
    expect(paths(await walk(site.gate, start.frontier))).toEqual(["/"]);
  });

  it("does not warn about a missing /sitemap.xml", async () => {
    const start = await startCrawl(site.gate, crawlRequest(site.url("/", "bare.test")));
    expect(start.warnings).toEqual([]);
    expect(paths(await walk(site.gate, start.frontier))).toEqual(["/", "/a"]);
  });

  it("fails when robots.txt answers 5xx, since nothing may be crawled, and says why", async () => {
    const url = site.url("/", "down.test");
    const error = await startCrawl(site.gate, crawlRequest(url, { sitemap: "skip" })).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "blocked", url });
    expect((error as Error).message).toBe(`cannot crawl ${url}: ${site.url("/robots.txt", "down.test")} answered HTTP 503; nothing on ${new URL(url).origin} is crawled in this run`);
  });

  it("fails when robots.txt disallows the start URL and nothing else is seeded", async () => {
    const url = site.url("/", "closed.test");
    await expect(startCrawl(site.gate, crawlRequest(url, { sitemap: "skip" }))).rejects.toMatchObject({
      kind: "blocked",
      message: `cannot crawl ${url}: ${new URL(url).origin}/robots.txt disallows it`,
    });
    const members = site.url("/members/home", "members.test");
    await expect(startCrawl(site.gate, crawlRequest(members))).rejects.toMatchObject({ kind: "blocked", message: expect.stringContaining("robots.txt disallows it") });
  });

  it("fails naming the cause when the start host does not resolve", async () => {
    site.requests.length = 0;
    const error = await startCrawl(site.gate, crawlRequest("http://nowhere.invalid/docs")).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "network", url: "http://nowhere.invalid/docs" });
    expect((error as Error).message).toBe("cannot crawl http://nowhere.invalid/docs: could not resolve host nowhere.invalid (ENOTFOUND)");
    expect((error as Error).message).not.toMatch(/robots/);
  });

  it("fails naming the cause when the start host refuses connections", async () => {
    const closed = await startRawServer(() => undefined);
    const url = closed.url("/");
    await closed.close();
    const error = await startCrawl(site.gate, crawlRequest(url)).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "network", url });
    expect((error as Error).message).toMatch(new RegExp(`^cannot crawl ${url}: could not fetch .*/robots.txt: connection refused by 127\\.0\\.0\\.1:${new URL(url).port}$`));
  });

  it("fails naming the network policy when the start host is a loopback address", async () => {
    const guarded = createFetchGate({ allowPrivateNetwork: false });
    try {
      site.requests.length = 0;
      const url = site.url("/", "127.0.0.1");
      const error = await startCrawl(guarded, crawlRequest(url)).catch((e: unknown) => e);
      expect(error).toMatchObject({ kind: "blocked", url });
      expect((error as Error).message).toMatch(/^cannot crawl .*: refused by the network policy: .*127\.0\.0\.1 is in the loopback range \(use --allow-private-network/);
      expect(site.requests).toEqual([]);
    } finally {
      await guarded.close();
    }
  });

  it("rejects a bad pattern before fetching anything", async () => {
    site.requests.length = 0;
    await expect(startCrawl(site.gate, crawlRequest(site.url("/", "shop.test"), { excludePaths: ["("] }))).rejects.toMatchObject({ kind: "invalid-input" });
    expect(site.requests).toEqual([]);
  });
});
