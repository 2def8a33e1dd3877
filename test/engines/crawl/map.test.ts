import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mapSite, rankByRelevance, robotsFromText, scanHead, scanLinks } from "../../../src/engines/local/crawl/index.js";
import { mapRequest, paths, startSite, type Site } from "./helpers.js";

let site: Site;
const HOME = `<!doctype html><html><head><title> Map &amp; Home </title><meta content="All about the map site" name="description"><base href="/"></head>
<body><!-- <a href="/commented">no</a> --><script>document.write('<a href="/scripted">no</a>')</script>
<a href="/about">About</a> <a class=x href='/pricing'>Pricing</a> <a href=/contact#form>Contact</a>
<a href="/secret/y">Secret</a> <a href="mailto:hi@map.test">Mail</a> <a href="http://other.test/q">Other</a>
<a href="//blog.map.test/hello">Blog</a> <a href="/about?utm=1">About again</a> <a href="#top">Top</a>
<a href="javascript:void(0)">JS</a> <a href="/a?x=1&amp;y=2">Amp</a></body></html>`;

beforeAll(async () => {
  site = await startSite(({ host, path }, res) => {
    const u = (p: string) => (p.startsWith("http") ? p : site.url(p, host));
    if (host === "slow.test") return; // never answers
    if (host === "dead.test") return void res.writeHead(path === "/" ? 500 : 404).end("down");
    if (host === "half.test") {
      if (path === "/sitemap.xml") return void res.writeHead(200, { "content-type": "application/xml" }).end(`<urlset><url><loc>${u("/listed")}</loc></url></urlset>`);
      return void res.writeHead(path === "/" ? 500 : 404).end("down");
    }
    switch (path) {
      case "/robots.txt":
        return void res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nDisallow: /secret\nSitemap: /sitemap.xml\n");
      case "/sitemap.xml": {
        const locs = ["/", "/pricing", "/blog/pricing-plans", "/docs/getting-started", "/secret/x", "http://blog.map.test/post", "http://other.test/z", "/pricing?ref=1", "/plans/enterprise"];
        return void res.writeHead(200, { "content-type": "application/xml" }).end(`<urlset>${locs.map((l) => `<url><loc>${u(l)}</loc></url>`).join("")}</urlset>`);
      }
      case "/":
        return void res.writeHead(200, { "content-type": "text/html" }).end(HOME);
      default:
        return void res.writeHead(404).end();
    }
  });
});
afterAll(() => site.close());

const home = (overrides = {}) => mapRequest(site.url("/", "map.test"), overrides);

describe("mapSite", () => {
  it("lists the sitemap URLs and the start page's links, on the site, without robots-disallowed ones", async () => {
    const result = await mapSite(site.gate, home());
    expect(result.warning).toBeUndefined();
    const urls = result.links.map((l) => l.url);
    expect(urls[0]).toBe(site.url("/", "map.test"));
    expect(result.links[0]).toMatchObject({ title: "Map & Home", description: "All about the map site" });
    expect(paths(urls)).toEqual(["/", "/about", "/pricing", "/contact", "/hello", "/a", "/blog/pricing-plans", "/docs/getting-started", "/post", "/plans/enterprise"]);
    expect(urls).toContain("http://blog.map.test/hello");
    expect(urls.some((u) => u.includes("other.test") || u.includes("secret") || u.includes("scripted") || u.includes("commented"))).toBe(false);
  });

  it("keeps subdomains out without includeSubdomains and queries in without ignoreQueryParameters", async () => {
    const urls = (await mapSite(site.gate, home({ includeSubdomains: false, ignoreQueryParameters: false }))).links.map((l) => l.url);
    expect(urls.some((u) => u.includes("blog.map.test"))).toBe(false);
    expect(paths(urls)).toEqual(expect.arrayContaining(["/about?utm=1", "/pricing?ref=1", "/a?x=1&y=2"]));
  });

  it("reads no sitemap with sitemap: skip", async () => {
    site.requests.length = 0;
    const urls = paths((await mapSite(site.gate, home({ sitemap: "skip" }))).links.map((l) => l.url));
    expect(site.requests.some((r) => r.endsWith(".xml"))).toBe(false);
    expect(urls).not.toContain("/docs/getting-started");
    expect(urls).toContain("/about");
  });

  it("does not fetch the start page with sitemap: only", async () => {
    site.requests.length = 0;
    const result = await mapSite(site.gate, home({ sitemap: "only" }));
    expect(site.requests).not.toContain("map.test/");
    expect(paths(result.links.map((l) => l.url))).toEqual(["/", "/pricing", "/blog/pricing-plans", "/docs/getting-started", "/post", "/plans/enterprise"]);
    expect(result.links[0]?.title).toBeUndefined();
  });

  it("orders by relevance to search, keeping the rest after", async () => {
    const result = await mapSite(site.gate, home({ search: "pricing plans" }));
    const ordered = paths(result.links.map((l) => l.url));
    expect(ordered.slice(0, 3)).toEqual(["/blog/pricing-plans", "/pricing", "/plans/enterprise"]);
    expect(ordered).toHaveLength(10);
  });

  it("returns at most limit links, after ordering", async () => {
    expect((await mapSite(site.gate, home({ limit: 3 }))).links).toHaveLength(3);
    expect(paths((await mapSite(site.gate, home({ limit: 1, search: "docs" }))).links.map((l) => l.url))).toEqual(["/docs/getting-started"]);
  });

  it("uses robots already loaded instead of fetching them", async () => {
    site.requests.length = 0;
    const robots = robotsFromText(site.url("/", "map.test"), "User-agent: *\nDisallow: /about\n");
    const urls = paths((await mapSite(site.gate, home({ sitemap: "skip" }), { robots })).links.map((l) => l.url));
    expect(site.requests).not.toContain("map.test/robots.txt");
    expect(urls).not.toContain("/about");
    expect(urls).toContain("/pricing");
  });

  it("turns a failing start page into a warning when the sitemap has links", async () => {
    const result = await mapSite(site.gate, mapRequest(site.url("/", "half.test")));
    expect(paths(result.links.map((l) => l.url))).toEqual(["/listed"]);
    expect(result.warning).toMatch(/answered HTTP 500/);
  });

  it("throws when nothing at all could be found", async () => {
    await expect(mapSite(site.gate, mapRequest(site.url("/", "dead.test")))).rejects.toMatchObject({ kind: "http-status", status: 500 });
  });

  it("fails as a timeout when the whole map exceeds timeout", async () => {
    await expect(mapSite(site.gate, mapRequest(site.url("/", "slow.test"), { timeout: 300 }))).rejects.toMatchObject({ kind: "timeout" });
  });

  it("rejects a URL it cannot map", async () => {
    await expect(mapSite(site.gate, mapRequest("mailto:x@map.test"))).rejects.toMatchObject({ kind: "invalid-input" });
  });
});

describe("light HTML scan", () => {
  it("resolves links against <base> and skips comments and scripts", () => {
    expect(scanLinks(HOME, "http://map.test/deep/page")).toContain("http://map.test/about");
    expect(scanLinks('<base href="http://cdn.test/x/"><a href="y">y</a>', "http://map.test/")).toEqual(["http://cdn.test/x/y"]);
    expect(scanLinks(HOME, "http://map.test/").some((l) => l.includes("commented") || l.includes("scripted"))).toBe(false);
  });

  it("falls back to og:description", () => {
    expect(scanHead('<meta property="og:description" content="OG text"><title>T</title>')).toEqual({ title: "T", description: "OG text" });
    expect(scanHead("<p>no head</p>")).toEqual({});
  });
});

describe("rankByRelevance", () => {
  it("scores a whole word of the URL over a part of one or a title word, stable for ties", () => {
    const links = [{ url: "http://s.test/a" }, { url: "http://s.test/shoes-sale" }, { url: "http://s.test/b", title: "Shoes" }, { url: "http://s.test/shoestring" }, { url: "http://s.test/c" }];
    expect(rankByRelevance(links, "Shoes").map((l) => l.url)).toEqual(["http://s.test/shoes-sale", "http://s.test/b", "http://s.test/shoestring", "http://s.test/a", "http://s.test/c"]);
    expect(rankByRelevance(links, "  ").map((l) => l.url)).toEqual(links.map((l) => l.url));
  });
});
