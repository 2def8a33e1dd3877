import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mapSite } from "../../../src/engines/local/crawl/index.js";
import { createFetchGate } from "../../../src/engines/local/fetch/index.js";
import { mapRequest, paths, startSite, type Site } from "./helpers.js";

/**
 * shop.test: 30 pages. The home page links 6 categories; each category links 4 products (two
 * clicks deep); the sitemap lists only the home page. Products link a spec PDF, which must be
 * listed but never fetched, and a page robots.txt disallows. A blog on blog.shop.test is linked
 * from the home page.
 */
const CATEGORIES = 6;
const PRODUCTS = 4;
let site: Site;
let slowServed = 0;
let delayInFlight = 0;
let delayMaxInFlight = 0;

const page = (title: string, hrefs: string[]) =>
  `<!doctype html><html><head><title>${title}</title><meta name="description" content="About ${title}"></head><body><nav><a href="/">Home</a></nav>` +
  `<main>${hrefs.map((h) => `<a href="${h}">${h}</a>`).join(" ")}</main></body></html>`;
const html = (res: import("node:http").ServerResponse, body: string) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(body);

beforeAll(async () => {
  site = await startSite(({ host, path }, res) => {
    if (host === "blog.shop.test") {
      if (path === "/") return html(res, page("Blog", ["/post-1", "/post-2"]));
      if (path.startsWith("/post-")) return html(res, page(path, []));
      return void res.writeHead(404).end();
    }
    if (host === "slow.test") {
      // Each page links ten more; every page after the first answers slowly.
      const n = Number(path.slice(1) || 0);
      const body = page(`Slow ${n}`, Array.from({ length: 10 }, (_, i) => `/${n * 10 + i + 1}`));
      if (n === 0) return html(res, body);
      slowServed++;
      return void setTimeout(() => html(res, body), 150);
    }
    if (host === "delay.test") {
      if (path === "/robots.txt") return void res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nCrawl-delay: 0.05\n");
      delayMaxInFlight = Math.max(delayMaxInFlight, ++delayInFlight);
      const body = path === "/" ? page("Delay", ["/a", "/b", "/c"]) : path === "/a" ? page("A", ["/a/deep"]) : page(path, []);
      return void setTimeout(() => {
        delayInFlight--;
        html(res, body);
      }, 20);
    }
    if (host !== "shop.test" && host !== "www.shop.test") return void res.writeHead(404).end();
    switch (path) {
      case "/robots.txt":
        return void res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nDisallow: /admin\n");
      case "/sitemap.xml":
        return void res.writeHead(200, { "content-type": "application/xml" }).end(`<urlset><url><loc>${site.url("/", "shop.test")}</loc></url></urlset>`);
      case "/":
        return html(res, page("Shop", [...Array.from({ length: CATEGORIES }, (_, c) => `/c${c}`), "/admin/panel", `//blog.shop.test:${site.server.port}/`]));
      case "/big.bin":
        return void res.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(50 * 1024 * 1024) }).end();
    }
    const category = /^\/c(\d)$/.exec(path);
    if (category) return html(res, page(`Category ${category[1]}`, Array.from({ length: PRODUCTS }, (_, p) => `/c${category[1]}/p${p}`)));
    const product = /^\/c(\d)\/p(\d)$/.exec(path);
    if (product) return html(res, page(`Product ${product[1]}.${product[2]}`, [`${path}/spec.pdf`, "/admin/edit", "/big.bin"]));
    return void res.writeHead(404).end();
  });
});
afterAll(() => site.close());

const shop = (overrides = {}) => mapRequest(site.url("/", "shop.test"), overrides);
const products = (urls: string[]) => paths(urls).filter((p) => /^\/c\d\/p\d$/.test(p));

describe("map walks the site", () => {
  it("finds pages two clicks deep that the sitemap does not list, with their titles", async () => {
    site.requests.length = 0;
    const result = await mapSite(site.gate, shop({ includeSubdomains: false }));
    expect(result.warning).toBeUndefined();
    const urls = result.links.map((l) => l.url);
    expect(products(urls)).toHaveLength(CATEGORIES * PRODUCTS);
    expect(paths(urls)).toEqual(expect.arrayContaining(["/", "/c0", "/c5", "/c5/p3", "/c0/p0/spec.pdf", "/big.bin"]));
    expect(result.links.find((l) => l.url.endsWith("/c2/p1"))).toMatchObject({ title: "Product 2.1", description: "About Product 2.1" });
    // robots.txt is honoured, in the list and in what is fetched; links only are read from HTML.
    expect(urls.some((u) => u.includes("/admin"))).toBe(false);
    expect(site.requests.some((r) => r.includes("/admin"))).toBe(false);
    expect(site.requests.some((r) => r.endsWith(".pdf"))).toBe(false);
    // Every page is read once, and nothing off the site.
    const pages = site.requests.filter((r) => r.startsWith("shop.test/") && !r.endsWith(".txt") && !r.endsWith(".xml"));
    expect(new Set(pages).size).toBe(pages.length);
    expect(site.requests.some((r) => r.startsWith("blog."))).toBe(false);
  });

  it("walks subdomains with includeSubdomains, reading their robots.txt", async () => {
    site.requests.length = 0;
    const urls = (await mapSite(site.gate, shop())).links.map((l) => l.url);
    expect(urls).toEqual(expect.arrayContaining([site.url("/post-1", "blog.shop.test"), site.url("/post-2", "blog.shop.test")]));
    expect(site.requests).toContain("blog.shop.test/robots.txt");
  });

  it("stops at limit, reading no more pages than it needs", async () => {
    site.requests.length = 0;
    const result = await mapSite(site.gate, shop({ limit: 12, includeSubdomains: false }));
    expect(result.links).toHaveLength(12);
    expect(site.requests.filter((r) => /\/c\d\/p\d$/.test(r))).toHaveLength(0);
  });

  it("lists only the sitemap with sitemap: only, and walks without it with sitemap: skip", async () => {
    site.requests.length = 0;
    expect(paths((await mapSite(site.gate, shop({ sitemap: "only" }))).links.map((l) => l.url))).toEqual(["/"]);
    expect(site.requests.filter((r) => !r.endsWith(".txt") && !r.endsWith(".xml"))).toEqual([]);
    site.requests.length = 0;
    const skipped = (await mapSite(site.gate, shop({ sitemap: "skip", includeSubdomains: false }))).links.map((l) => l.url);
    expect(products(skipped)).toHaveLength(CATEGORIES * PRODUCTS);
    expect(site.requests.some((r) => r.endsWith(".xml"))).toBe(false);
  });

  it("ranks what the walk found by search", async () => {
    const result = await mapSite(site.gate, shop({ search: "p3", limit: 6, includeSubdomains: false }));
    expect(products(result.links.map((l) => l.url)).filter((p) => p.endsWith("/p3"))).toHaveLength(6);
  });

  it("returns what it found at the timeout, with a warning", async () => {
    slowServed = 0;
    const result = await mapSite(site.gate, mapRequest(site.url("/", "slow.test"), { sitemap: "skip", timeout: 500 }));
    expect(result.links.length).toBeGreaterThanOrEqual(11);
    expect(result.links.length).toBeLessThan(5000);
    expect(result.warning).toMatch(/stopped at its timeout of 500 ms with \d+ URL\(s\).*the site may have more/);
    expect(slowServed).toBeGreaterThan(0);
  });

  it("reads one page at a time when robots.txt sets a Crawl-delay", async () => {
    delayMaxInFlight = 0;
    const urls = paths((await mapSite(site.gate, mapRequest(site.url("/", "delay.test"), { sitemap: "skip" }))).links.map((l) => l.url));
    expect(urls).toEqual(["/", "/a", "/b", "/c", "/a/deep"]);
    expect(delayMaxInFlight).toBe(1);
  });
});

describe("a map that finds nothing fails with the cause", () => {
  it("names a DNS failure", async () => {
    await expect(mapSite(site.gate, mapRequest("http://no-such-host.invalid/"))).rejects.toMatchObject({ kind: "network", message: expect.stringMatching(/ENOTFOUND|no-such-host/) });
  });

  it("names a refused connection", async () => {
    const closed = await startSite(() => undefined);
    const url = closed.url("/", "gone.test");
    await closed.server.close();
    try {
      await expect(mapSite(closed.gate, mapRequest(url))).rejects.toMatchObject({ kind: "network", message: expect.stringMatching(/refused|ECONNREFUSED/i) });
    } finally {
      await closed.gate.close();
    }
  });

  it("names the network policy that refused the address", async () => {
    const gate = createFetchGate({ allowPrivateNetwork: false });
    try {
      await expect(mapSite(gate, mapRequest("http://127.0.0.1:9/"))).rejects.toMatchObject({ kind: "blocked" });
    } finally {
      await gate.close();
    }
  });
});

describe("map walks past traps", () => {
  let traps: Site;
  beforeAll(async () => {
    traps = await startSite(({ path, url }, res) => {
      if (path === "/") return html(res, page("Traps", ["/cal?month=0", "/loop/page.html"]));
      if (path === "/cal") {
        const month = Number(url.searchParams.get("month") ?? 0);
        return html(res, page(`Month ${month}`, [`/cal?month=${month + 1}`]));
      }
      if (path.startsWith("/loop/")) return html(res, page("Loop", ["a/b/page.html"]));
      res.writeHead(404).end();
    });
  });
  afterAll(() => traps.close());

  it("reads at most 10 query variants of a path and no relative-link loop, keeping the URLs it saw", async () => {
    traps.requests.length = 0;
    const result = await mapSite(traps.gate, mapRequest(traps.url("/", "trap.test"), { ignoreQueryParameters: false, sitemap: "skip" }));
    expect(result.warning).toBeUndefined();
    expect(traps.requests.filter((r) => r.startsWith("trap.test/cal?"))).toHaveLength(10);
    expect(traps.requests.filter((r) => r.startsWith("trap.test/loop/")).length).toBeLessThanOrEqual(3);
    expect(result.links.length).toBeLessThan(30);
  });
});
