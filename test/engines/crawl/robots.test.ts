import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAllowed, loadRobots, parseRobots, robotsFromText } from "../../../src/engines/local/crawl/index.js";
import { startSite, type Site } from "./helpers.js";

const ORIGIN = "http://site.test";

function allows(text: string, path: string): boolean {
  return robotsFromText(ORIGIN, text).allows(`${ORIGIN}${path}`);
}

describe("robots.txt rules", () => {
  it("applies Disallow as a prefix and allows what no rule matches", () => {
    const text = "User-agent: *\nDisallow: /private\n";
    expect(allows(text, "/private")).toBe(false);
    expect(allows(text, "/private/x")).toBe(false);
    expect(allows(text, "/privateer")).toBe(false);
    expect(allows(text, "/public")).toBe(true);
    expect(allows(text, "/")).toBe(true);
  });

  it("lets the longest match win and Allow win a tie", () => {
    const text = "User-agent: *\nDisallow: /docs\nAllow: /docs/public\nDisallow: /docs/public/secret\nAllow: /same\nDisallow: /same\n";
    expect(allows(text, "/docs/x")).toBe(false);
    expect(allows(text, "/docs/public/page")).toBe(true);
    expect(allows(text, "/docs/public/secret/1")).toBe(false);
    expect(allows(text, "/same")).toBe(true);
  });

  it("supports * and $ wildcards", () => {
    const text = "User-agent: *\nDisallow: /*.pdf$\nDisallow: /search*q=\nDisallow: /exact$\nAllow: /*.pdf?download=1$\n";
    expect(allows(text, "/files/report.pdf")).toBe(false);
    expect(allows(text, "/files/report.pdf.html")).toBe(true);
    expect(allows(text, "/search?q=shoes")).toBe(false);
    expect(allows(text, "/search/advanced?lang=en&q=x")).toBe(false);
    expect(allows(text, "/search?lang=en")).toBe(true);
    expect(allows(text, "/exact")).toBe(false);
    expect(allows(text, "/exact/more")).toBe(true);
    const pdfs = "User-agent: *\nDisallow: /*.pdf\nAllow: /*.pdf?download=1$\n";
    expect(allows(pdfs, "/a.pdf?download=1")).toBe(true);
    expect(allows(pdfs, "/a.pdf?download=12")).toBe(false);
    expect(allows(pdfs, "/a.pdf")).toBe(false);
  });

  it("matches the query string and percent-encoded paths", () => {
    const text = "User-agent: *\nDisallow: /*?sessionid=\nDisallow: /café\nDisallow: /a%3cb\n";
    expect(allows(text, "/page?sessionid=42")).toBe(false);
    expect(allows(text, "/page?other=1")).toBe(true);
    expect(allows(text, "/caf%C3%A9/menu")).toBe(false);
    expect(allows(text, "/a%3Cb")).toBe(false);
  });

  it("keeps wildcard matching linear on hostile patterns", () => {
    const rules = parseRobots(`User-agent: *\nDisallow: /${"*a".repeat(40)}b\n`).rules;
    expect(isAllowed(rules, `/${"a".repeat(2000)}`)).toBe(true);
  });

  it("uses the scrapeline group when there is one, merging repeated groups, else *", () => {
    const text = [
      "User-agent: *",
      "Disallow: /",
      "",
      "User-agent: otherbot",
      "User-agent: Scrapeline/1.0",
      "Disallow: /no-scrapeline",
      "",
      "User-agent: scrapeline",
      "Disallow: /also-no",
    ].join("\n");
    expect(allows(text, "/anything")).toBe(true);
    expect(allows(text, "/no-scrapeline")).toBe(false);
    expect(allows(text, "/also-no")).toBe(false);
    expect(allows("User-agent: googlebot\nDisallow: /\n", "/x")).toBe(true);
    expect(allows("User-agent: *\nDisallow: /\n", "/x")).toBe(false);
  });

  it("ignores comments, blank Disallow, junk lines and rules before any User-agent", () => {
    const text = "Disallow: /before\n# comment\nUser-agent: * # everyone\nDisallow:\nnonsense line\nDisallow: /x # trailing\n";
    expect(allows(text, "/before")).toBe(true);
    expect(allows(text, "/y")).toBe(true);
    expect(allows(text, "/x")).toBe(false);
  });

  it("never disallows /robots.txt itself", () => {
    expect(allows("User-agent: *\nDisallow: /\n", "/robots.txt")).toBe(true);
  });

  it("reads Crawl-delay of the chosen group and Sitemap lines anywhere", () => {
    const text = "Sitemap: /sitemap-a.xml\nUser-agent: *\nCrawl-delay: 7\nUser-agent: other\n\nUser-agent: scrapeline\nCrawl-delay: 2.5\nDisallow: /x\nSitemap: https://cdn.test/s.xml.gz\n";
    const robots = robotsFromText(ORIGIN, text);
    expect(robots.crawlDelaySeconds).toBe(2.5);
    expect(robots.sitemaps).toEqual([`${ORIGIN}/sitemap-a.xml`, "https://cdn.test/s.xml.gz"]);
    expect(robotsFromText(ORIGIN, "User-agent: *\nCrawl-delay: 7\n").crawlDelaySeconds).toBe(7);
    expect(robotsFromText(ORIGIN, "User-agent: *\nCrawl-delay: soon\n").crawlDelaySeconds).toBeUndefined();
  });
});

describe("loadRobots", () => {
  let site: Site;
  const bodies: Record<string, () => [number, Record<string, string>, string | Buffer] | "hang"> = {
    "ok.test": () => [200, { "content-type": "text/plain" }, "User-agent: *\nDisallow: /private\nCrawl-delay: 3\nSitemap: /sm.xml\n"],
    "missing.test": () => [404, {}, "not found"],
    "gone.test": () => [410, {}, "gone"],
    "broken.test": () => [500, {}, "oops"],
    "busy.test": () => [503, { "retry-after": "10" }, "busy"],
    "limited.test": () => [429, {}, "slow down"],
    "huge.test": () => [200, { "content-type": "text/plain" }, `User-agent: *\nDisallow: /\n${"# padding\n".repeat(60_000)}`],
    "binary.test": () => [200, { "content-type": "image/png" }, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])],
    "html.test": () => [200, { "content-type": "text/html" }, "<html><body>Welcome</body></html>"],
    "slow.test": () => "hang",
    "utf16.test": () => [200, { "content-type": "text/plain; charset=utf-16le" }, Buffer.from("User-agent: *\nDisallow: /private\n", "utf16le")],
    "utf16bom.test": () => [200, { "content-type": "text/plain" }, Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from("User-agent: *\nDisallow: /private\n", "utf16le").swap16()])],
    "away.test": () => [301, { location: "http://nowhere.invalid/robots.txt" }, "moved"],
  };

  beforeAll(async () => {
    site = await startSite(({ host, path }, res) => {
      if (path === "/robots.txt" && host === "redirect.test") {
        res.writeHead(301, { location: `http://ok.test:${site.server.port}/robots.txt` }).end();
        return;
      }
      const answer = bodies[host]?.();
      if (answer === "hang") return; // never answers
      if (path !== "/robots.txt" || !answer) return void res.writeHead(404).end();
      const [status, headers, body] = answer;
      res.writeHead(status, headers).end(body);
    });
  });
  afterAll(() => site.close());

  const load = (host: string, timeoutMs?: number) => loadRobots(site.gate, site.url("/", host), timeoutMs ? { timeoutMs } : {});

  it("parses a 2xx file: rules, Crawl-delay and Sitemap lines", async () => {
    const robots = await load("ok.test");
    expect(robots.origin).toBe(site.url("/", "ok.test").slice(0, -1));
    expect(robots.allows(site.url("/private/a", "ok.test"))).toBe(false);
    expect(robots.allows(site.url("/public", "ok.test"))).toBe(true);
    expect(robots.crawlDelaySeconds).toBe(3);
    expect(robots.sitemaps).toEqual([site.url("/sm.xml", "ok.test")]);
    expect(robots.note).toBeUndefined();
    expect(site.requests).toContain("ok.test/robots.txt");
  });

  it("follows a redirect to the file", async () => {
    const robots = await load("redirect.test");
    expect(robots.allows(site.url("/private", "redirect.test"))).toBe(false);
  });

  it.each(["missing.test", "gone.test"])("allows everything when %s has no robots.txt (4xx)", async (host) => {
    const robots = await load(host);
    expect(robots.allows(site.url("/anything", host))).toBe(true);
    expect(robots.note).toBeUndefined();
  });

  it.each(["broken.test", "busy.test", "limited.test"])("disallows everything when %s cannot answer (5xx, 429)", async (host) => {
    const robots = await load(host);
    expect(robots.allows(site.url("/", host))).toBe(false);
    expect(robots.allows(site.url("/anything", host))).toBe(false);
    expect(robots.note).toMatch(/HTTP (500|503|429).*nothing on .* is crawled/);
  });

  it("disallows everything when robots.txt times out", async () => {
    const robots = await load("slow.test", 300);
    expect(robots.allows(site.url("/", "slow.test"))).toBe(false);
    expect(robots.note).toMatch(/could not be read .*did not complete within 300 ms/);
  });

  it("disallows everything on a network error, and says the host is down when it refuses connections", async () => {
    const robots = await loadRobots(site.gate, "http://127.0.0.1:1/");
    expect(robots.allows("http://127.0.0.1:1/page")).toBe(false);
    expect(robots.note).toMatch(/could not be read/);
    expect(robots.hostDown?.message).toMatch(/connection refused by 127\.0\.0\.1:1/);
  });

  it("says the host is down when its name does not resolve", async () => {
    const robots = await loadRobots(site.gate, "http://nowhere.invalid/");
    expect(robots.hostDown).toMatchObject({ kind: "network", message: expect.stringMatching(/could not resolve host nowhere\.invalid/) });
  });

  it("does not call a host that answered down when its robots.txt redirects to one that is", async () => {
    const robots = await load("away.test");
    expect(robots.allows(site.url("/", "away.test"))).toBe(false);
    expect(robots.note).toMatch(/could not resolve host nowhere\.invalid/);
    expect(robots.hostDown).toBeUndefined();
  });

  it.each(["utf16.test", "utf16bom.test"])("reads a UTF-16 robots.txt on %s", async (host) => {
    const robots = await load(host);
    expect(robots.note).toBeUndefined();
    expect(robots.allows(site.url("/private/a", host))).toBe(false);
    expect(robots.allows(site.url("/public", host))).toBe(true);
  });

  it("has no hostDown for a host that answers, even with 5xx or a timeout", async () => {
    expect((await load("broken.test")).hostDown).toBeUndefined();
    expect((await load("slow.test", 300)).hostDown).toBeUndefined();
  });

  it("ignores a robots.txt over 512 KiB (allow-all) and says so", async () => {
    const robots = await load("huge.test");
    expect(robots.allows(site.url("/anything", "huge.test"))).toBe(true);
    expect(robots.note).toMatch(/larger than 524288 bytes/);
  });

  it("ignores a binary robots.txt (allow-all) and says so", async () => {
    const robots = await load("binary.test");
    expect(robots.allows(site.url("/anything", "binary.test"))).toBe(true);
    expect(robots.note).toMatch(/binary \(image\/png\)/);
  });

  it("reads an HTML page served as robots.txt as having no rules", async () => {
    const robots = await load("html.test");
    expect(robots.allows(site.url("/anything", "html.test"))).toBe(true);
  });

  it("throws when the caller cancels", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(loadRobots(site.gate, site.url("/", "ok.test"), { signal: controller.signal })).rejects.toMatchObject({ kind: "cancelled" });
  });
});
