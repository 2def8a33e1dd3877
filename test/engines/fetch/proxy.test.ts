import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScrapeOptions } from "../../../src/core/index.js";
import { LocalEngine } from "../../../src/engines/local/index.js";
import { isHostDown } from "../../../src/engines/local/fetch/index.js";
import { loadPipelineText } from "../../../src/pipeline/index.js";
import { ForwardProxy } from "../../helpers/forward-proxy.js";
import { FixtureSite, htmlPage } from "../../helpers/site.js";
import { SocksServer } from "../../helpers/socks-server.js";

function options(extra: Record<string, unknown> = {}): ScrapeOptions {
  const yaml = `version: 1\nname: t\nsteps:\n  - id: s\n    scrape: ${JSON.stringify({ url: "https://example.com/", ...extra })}\n`;
  const step = loadPipelineText("t.yaml", yaml).pipeline?.steps[0];
  if (!step || step.kind !== "scrape") throw new Error("bad options");
  return step.body;
}

const challenge = readFileSync(new URL("../../fixtures/blocked/block/cloudflare-managed-challenge.html", import.meta.url), "utf8");
const site = new FixtureSite();
const seen: Array<{ path: string; via?: string; language?: string }> = [];
const basicProxy = new ForwardProxy({ name: "basic", user: "shop-user", password: "pr0xy-s3cret" });
const enhancedA = new ForwardProxy({ name: "enhanced-a" });
const enhancedB = new ForwardProxy({ name: "enhanced-b" });
const germanProxy = new ForwardProxy({ name: "de" });
const socks = new SocksServer({ user: "sock-user", password: "s0cks-s3cret", name: "socks" });
// 127.0.0.1 plays a public host; the proxies are the operator's and may be anywhere, loopback included.
const engines: LocalEngine[] = [];
const engine = (env: Record<string, string>, extra: { browser?: "always" } = {}) => {
  const made = new LocalEngine({ allowPrivateNetwork: false, treatAsPublic: ["127.0.0.0/8"], env, ...extra });
  engines.push(made);
  return made;
};

beforeAll(async () => {
  site.route("/price", (req, res) => {
    const via = req.headers["via-proxy"] as string | undefined;
    seen.push({ path: "/price", ...(via ? { via } : {}), ...(req.headers["accept-language"] ? { language: req.headers["accept-language"] as string } : {}) });
    res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Grinder", `<p>Price 249, seen through ${via ?? "no proxy"}</p>`));
  });
  // A shop whose anti-bot service challenges this machine's address, and not the enhanced proxies'.
  site.route("/guarded", (req, res) => {
    const via = req.headers["via-proxy"] as string | undefined;
    if (!via?.startsWith("enhanced")) return void res.writeHead(403, { "content-type": "text/html", "cf-mitigated": "challenge" }).end(challenge);
    res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Guarded", `<p>Stock: 3 left, through ${via}</p>`));
  });
  site.route("/forbidden", (req, res) => {
    const via = req.headers["via-proxy"] as string | undefined;
    if (!via?.startsWith("enhanced")) return void res.writeHead(403, { "content-type": "text/html" }).end("<h1>Forbidden</h1>");
    res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Open", "<p>open to the proxy</p>"));
  });
  site.route("/sitemap.xml", (req, res) => {
    seen.push({ path: "/sitemap.xml", ...(req.headers["via-proxy"] ? { via: req.headers["via-proxy"] as string } : {}) });
    res.writeHead(200, { "content-type": "application/xml" }).end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${site.url}/price</loc></url></urlset>`);
  });
  await Promise.all([site.start(), basicProxy.start(), enhancedA.start(), enhancedB.start(), germanProxy.start(), socks.start()]);
});

afterAll(async () => {
  await Promise.all(engines.map((e) => e.close()));
  await Promise.all([site.stop(), basicProxy.stop(), enhancedA.stop(), enhancedB.stop(), germanProxy.stop(), socks.stop()]);
});

const withCredentials = (proxy: ForwardProxy, user: string, password: string) => proxy.url.replace("http://", `http://${user}:${password}@`);

describe("proxy on the local engine", () => {
  it("basic goes through SCRAPELINE_PROXY with its credentials", async () => {
    const e = engine({ SCRAPELINE_PROXY: withCredentials(basicProxy, "shop-user", "pr0xy-s3cret") });
    const doc = await e.scrape(`${site.url}/price`, options({ proxy: "basic" }));
    expect(doc.markdown).toContain("seen through basic");
    expect(doc.metadata.proxyUsed).toBe("basic");
    expect(basicProxy.carried).toContain(new URL(site.url).host);
  });

  it("basic goes through a SOCKS5 proxy", async () => {
    const e = engine({ SCRAPELINE_PROXY: socks.url });
    const doc = await e.scrape(`${site.url}/price`, options());
    expect(doc.markdown).toContain("seen through socks");
    expect(socks.carried).toEqual([new URL(site.url).host]);
  });

  it("a wrong proxy password fails the page without showing the password", async () => {
    const e = engine({ SCRAPELINE_PROXY: withCredentials(basicProxy, "shop-user", "wr0ng-s3cret") });
    const error = await e.scrape(`${site.url}/price`, options()).catch((err: Error) => err);
    expect(error).toBeInstanceOf(Error);
    expect(JSON.stringify({ message: (error as Error).message, url: (error as { url?: string }).url })).not.toContain("wr0ng-s3cret");
    expect(basicProxy.refused).toBeGreaterThan(0);
    expect((error as Error).message).toBe(`the proxy ${basicProxy.url} refused its credentials (HTTP 407) for ${site.url}/price`);
  });

  it("a proxy that is down is said to be the proxy's failure, not the site's", async () => {
    const e = engine({ SCRAPELINE_PROXY: "socks5://ops:d0wn-s3cret@127.0.0.1:1" });
    const error = await e.scrape(`${site.url}/price`, options()).catch((err: Error) => err);
    expect(error).toMatchObject({ kind: "network", message: expect.stringContaining("could not reach the proxy socks5://127.0.0.1:1") });
    expect(isHostDown(error)).toBe(false);
    expect((error as Error).message).not.toContain("d0wn-s3cret");
  });

  it("never reaches a private address through a proxy: the target is checked first", async () => {
    const e = new LocalEngine({ allowPrivateNetwork: false, env: { SCRAPELINE_PROXY: enhancedA.url } });
    engines.push(e);
    const before = enhancedA.carried.length;
    await expect(e.scrape(`${site.url}/price`, options())).rejects.toMatchObject({ kind: "blocked" });
    expect(enhancedA.carried.length).toBe(before);
  });

  it("auto switches to the enhanced proxy after a block, without a surcharge mark", async () => {
    const e = engine({ SCRAPELINE_ENHANCED_PROXY: enhancedA.url });
    const doc = await e.scrape(`${site.url}/guarded`, options({ proxy: "auto" }));
    expect(doc.markdown).toContain("through enhanced-a");
    expect(doc.metadata.proxyUsed).toBe("stealth");
    // Without an enhanced proxy, auto is basic: the block stays a blocked page.
    await expect(engine({}).scrape(`${site.url}/guarded`, options({ proxy: "auto" }))).rejects.toMatchObject({ kind: "blocked-page", message: expect.stringContaining("blocked by Cloudflare") });
  });

  it("auto switches after a 403 too; basic keeps the 403 as the page's answer", async () => {
    const e = engine({ SCRAPELINE_ENHANCED_PROXY: enhancedA.url });
    expect((await e.scrape(`${site.url}/forbidden`, options({ proxy: "auto" }))).markdown).toContain("open to the proxy");
    expect((await e.scrape(`${site.url}/forbidden`, options({ proxy: "basic" }))).metadata.statusCode).toBe(403);
  });

  it("enhanced (and stealth) rotate through the list, one proxy per attempt", async () => {
    const e = engine({ SCRAPELINE_ENHANCED_PROXY: `${enhancedA.url}, ${enhancedB.url}` });
    const first = await e.scrape(`${site.url}/price`, options({ proxy: "enhanced" }));
    const second = await e.scrape(`${site.url}/price`, { ...options({ proxy: "enhanced" }), proxy: "stealth" as never });
    expect([first.markdown, second.markdown].map((m) => /seen through ([\w-]+)/.exec(m ?? "")?.[1])).toEqual(["enhanced-a", "enhanced-b"]);
  });

  it("enhanced keeps one proxy per host while a session is logged in", async () => {
    const e = engine({ SCRAPELINE_ENHANCED_PROXY: `${enhancedA.url},${enhancedB.url}` });
    const session = { name: "shop", state: () => ({ cookies: [], origins: [] }) as never, update: () => undefined };
    const through = async (extras: { session?: typeof session }) => /seen through ([\w-]+)/.exec((await e.scrape(`${site.url}/price`, options({ proxy: "enhanced" }), undefined, extras)).markdown ?? "")?.[1];
    const loggedIn = [await through({ session }), await through({ session }), await through({ session })];
    expect(new Set(loggedIn).size).toBe(1);
    const anonymous = [await through({}), await through({})];
    expect(new Set(anonymous)).toEqual(new Set(["enhanced-a", "enhanced-b"]));
  });

  it("location.country picks its proxy and language, and says so when it has none", async () => {
    const e = engine({ SCRAPELINE_PROXY_DE: germanProxy.url });
    seen.length = 0;
    const german = await e.scrape(`${site.url}/price`, options({ location: { country: "DE" } }));
    expect(german.markdown).toContain("seen through de");
    expect(german.warning).toBeUndefined();
    expect(seen[0]?.language).toMatch(/^de-DE/);
    const french = await e.scrape(`${site.url}/price`, options({ location: { country: "FR" } }));
    expect(french.markdown).toContain("seen through no proxy");
    expect(french.warning).toContain("no SCRAPELINE_PROXY_FR is set");
  });

  it("a map's and a crawl's discovery (sitemaps, robots.txt) goes through the proxy too", async () => {
    const e = engine({ SCRAPELINE_PROXY: socks.url });
    seen.length = 0;
    const map = await e.map({ url: `${site.url}/`, sitemap: "only", includeSubdomains: false, ignoreQueryParameters: true, limit: 10 });
    expect(map.links.map((l) => l.url)).toContain(`${site.url}/price`);
    expect(seen.filter((s) => s.path === "/sitemap.xml")).toEqual([{ path: "/sitemap.xml", via: "socks" }]);
  });

  it("refuses a proxy variable that is not a proxy URL, naming it", () => {
    expect(() => new LocalEngine({ allowPrivateNetwork: false, env: { SCRAPELINE_ENHANCED_PROXY: "ftp://user:pw@proxy.example:21" } })).toThrow(/SCRAPELINE_ENHANCED_PROXY must be an http:\/\/, https:\/\/ or socks5:\/\/ proxy URL/);
  });
});

describe("proxy in the browser", () => {
  it("sends the page's requests on through the proxy, after the gate checked them", async () => {
    const e = engine({ SCRAPELINE_PROXY: withCredentials(basicProxy, "shop-user", "pr0xy-s3cret") }, { browser: "always" });
    const doc = await e.scrape(`${site.url}/price`, options({ location: { country: "DE" } }));
    expect(doc.markdown).toContain("seen through basic");
  });

  it("tells a block page loaded in the browser, and auto loads it again through the enhanced proxy", async () => {
    await expect(engine({}, { browser: "always" }).scrape(`${site.url}/guarded`, options({ proxy: "auto" }))).rejects.toMatchObject({ kind: "blocked-page", message: expect.stringContaining("blocked by Cloudflare: HTTP 403") });
    const before = enhancedB.carried.length;
    const doc = await engine({ SCRAPELINE_ENHANCED_PROXY: enhancedB.url }, { browser: "always" }).scrape(`${site.url}/guarded`, options({ proxy: "auto" }));
    expect(doc.markdown).toContain("through enhanced-b");
    expect(doc.metadata.proxyUsed).toBe("stealth");
    expect(enhancedB.carried.length).toBeGreaterThan(before);
  });

  it("goes through a SOCKS5 proxy too", async () => {
    const e = engine({ SCRAPELINE_PROXY: socks.url }, { browser: "always" });
    const doc = await e.scrape(`${site.url}/price`, options());
    expect(doc.markdown).toContain("seen through socks");
  });
});
