import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_MAX_SITEMAPS, readSitemaps, scanSitemap } from "../../../src/engines/local/crawl/index.js";
import { startSite, type Site } from "./helpers.js";

const XML = { "content-type": "application/xml" };

function urlset(locs: string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((l) => `<url><loc>${l}</loc></url>`).join("")}</urlset>`;
}

function index(locs: string[]): string {
  return `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((l) => `<sitemap><loc>${l}</loc><lastmod>2024-01-01</lastmod></sitemap>`).join("\n")}</sitemapindex>`;
}

let site: Site;
const u = (path: string) => site.url(path);

beforeAll(async () => {
  site = await startSite(({ path }, res) => {
    const send = (body: string | Buffer, headers: Record<string, string> = XML) => res.writeHead(200, headers).end(body);
    const bomb = /^\/bomb\/(\d+)\.xml$/.exec(path);
    if (bomb) return send(index(Array.from({ length: 1000 }, (_, i) => u(`/bomb/${Number(bomb[1]) * 1000 + i + 1}.xml`))));
    switch (path) {
      case "/plain.xml":
        return send(urlset([u("/a"), u("/b?x=1&amp;y=2"), `<![CDATA[${u("/c")}]]>`, ` \n ${u("/d")} \n`, u("/a")]));
      case "/images.xml":
        return send(
          `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"><url><loc>${u("/gallery")}</loc><image:image><image:loc>${u("/img/1.jpg")}</image:loc></image:image></url></urlset>`,
        );
      case "/prefixed.xml":
        return send(`<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:url><sm:loc>${u("/p1")}</sm:loc></sm:url></sm:urlset>`);
      case "/index.xml":
        return send(index([u("/s1.xml"), u("/nested.xml"), u("/s3.xml"), u("/s1.xml")]));
      case "/nested.xml":
        return send(index([u("/s2.xml"), u("/index.xml"), u("/missing.xml")]));
      case "/s1.xml":
        return send(urlset([u("/one/1"), u("/one/2")]));
      case "/s2.xml":
        return send(urlset([u("/two/1")]));
      case "/s3.xml":
        return send(urlset([u("/three/1"), "https://elsewhere.test/page", "mailto:x@site.test", "not a url"]));
      case "/pages.xml.gz":
        return send(gzipSync(urlset([u("/gz/1"), u("/gz/2")])), { "content-type": "application/x-gzip" });
      case "/disguised.xml":
        return send(gzipSync(urlset([u("/gz/3")])), { "content-type": "application/octet-stream" });
      case "/encoded.xml.gz":
        return send(gzipSync(urlset([u("/gz/4")])), { "content-type": "application/xml", "content-encoding": "gzip" });
      case "/gzbomb.xml.gz":
        return send(gzipSync(Buffer.alloc(4 * 1024 * 1024, 0x20)), { "content-type": "application/x-gzip" });
      case "/corrupt.xml.gz":
        return send(Buffer.from([0x1f, 0x8b, 8, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]), { "content-type": "application/x-gzip" });
      case "/big.xml":
        return send(urlset(Array.from({ length: 500 }, (_, i) => u(`/big/${i}`))));
      case "/list.txt":
        return send(`${u("/t/1")}\n\n${u("/t/2")}\r\nnot-a-url\n`, { "content-type": "text/plain" });
      case "/bomb.xml":
        return send(index(Array.from({ length: 1000 }, (_, i) => u(`/bomb/${i + 1}.xml`))));
      default:
        return void res.writeHead(404).end();
    }
  });
});
afterAll(() => site.close());

const fetchedPaths = () => site.requests.map((r) => r.replace(/^site\.test/, ""));

describe("readSitemaps", () => {
  it("reads a urlset: decoded, CDATA-unwrapped, trimmed, deduplicated", async () => {
    const result = await readSitemaps(site.gate, [u("/plain.xml")], { maxUrls: 100 });
    expect(result.urls).toEqual([u("/a"), u("/b?x=1&y=2"), u("/c"), u("/d")]);
    expect(result.sitemaps).toEqual([u("/plain.xml")]);
    expect(result.failed).toEqual([]);
    expect(result.truncated).toBe(false);
  });

  it("does not take image locations for pages, and honours a namespace prefix", async () => {
    expect((await readSitemaps(site.gate, [u("/images.xml")], { maxUrls: 100 })).urls).toEqual([u("/gallery")]);
    expect((await readSitemaps(site.gate, [u("/prefixed.xml")], { maxUrls: 100 })).urls).toEqual([u("/p1")]);
  });

  it("follows nested indexes depth-first, fetching each file once, and records failures", async () => {
    site.requests.length = 0;
    const result = await readSitemaps(site.gate, [u("/index.xml")], { maxUrls: 100 });
    expect(result.sitemaps).toEqual([u("/index.xml"), u("/s1.xml"), u("/nested.xml"), u("/s2.xml"), u("/s3.xml")]);
    expect(result.urls).toEqual([u("/one/1"), u("/one/2"), u("/two/1"), u("/three/1"), "https://elsewhere.test/page"]);
    expect(result.failed).toEqual([expect.objectContaining({ url: u("/missing.xml"), status: 404 })]);
    const fetched = fetchedPaths();
    expect(new Set(fetched).size).toBe(fetched.length);
  });

  it("returns URLs of other hosts as listed", async () => {
    const result = await readSitemaps(site.gate, [u("/s3.xml")], { maxUrls: 100 });
    expect(result.urls).toContain("https://elsewhere.test/page");
  });

  it("inflates gzip sitemaps, by name or by magic bytes, and accepts gzip content-encoding", async () => {
    const result = await readSitemaps(site.gate, [u("/pages.xml.gz"), u("/disguised.xml"), u("/encoded.xml.gz")], { maxUrls: 100 });
    expect(result.urls).toEqual([u("/gz/1"), u("/gz/2"), u("/gz/3"), u("/gz/4")]);
    expect(result.failed).toEqual([]);
  });

  it("stops a gzip bomb at the decoded cap and a corrupt gzip as bad content, and reads on", async () => {
    const result = await readSitemaps(site.gate, [u("/gzbomb.xml.gz"), u("/corrupt.xml.gz"), u("/s2.xml")], { maxUrls: 100, maxBytes: 1024 * 1024 });
    expect(result.failed.map((f) => f.url)).toEqual([u("/gzbomb.xml.gz"), u("/corrupt.xml.gz")]);
    expect(result.failed[0]?.reason).toMatch(/inflates to more than 1048576 bytes/);
    expect(result.failed[1]?.reason).toMatch(/not valid gzip/);
    expect(result.urls).toEqual([u("/two/1")]);
  });

  it("caps the page URLs at maxUrls", async () => {
    const result = await readSitemaps(site.gate, [u("/big.xml"), u("/s1.xml")], { maxUrls: 120 });
    expect(result.urls).toHaveLength(120);
    expect(result.truncated).toBe(true);
    expect(result.sitemaps).toEqual([u("/big.xml")]);
  });

  it("reads the plain-text form", async () => {
    expect((await readSitemaps(site.gate, [u("/list.txt")], { maxUrls: 100 })).urls).toEqual([u("/t/1"), u("/t/2")]);
  });

  it("stops a sitemap bomb (an index of 1000 indexes of 1000) at the file bound", async () => {
    site.requests.length = 0;
    const result = await readSitemaps(site.gate, [u("/bomb.xml")], { maxUrls: 1000 });
    expect(result.truncated).toBe(true);
    expect(result.urls).toEqual([]);
    expect(site.requests.length).toBeLessThanOrEqual(DEFAULT_MAX_SITEMAPS);
    expect(result.sitemaps.length).toBe(site.requests.length);

    site.requests.length = 0;
    const small = await readSitemaps(site.gate, [u("/bomb.xml")], { maxUrls: 1000, maxSitemaps: 5 });
    expect(site.requests).toHaveLength(5);
    expect(small.sitemaps).toEqual([u("/bomb.xml"), u("/bomb/1.xml"), u("/bomb/2.xml"), u("/bomb/3.xml"), u("/bomb/4.xml")]);
  });

  it("throws only when cancelled", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(readSitemaps(site.gate, [u("/s1.xml")], { maxUrls: 10, signal: controller.signal })).rejects.toMatchObject({ kind: "cancelled" });
  });
});

describe("scanSitemap", () => {
  it("tells an index from a urlset and reports unknown documents", () => {
    const seen: Array<[string, boolean]> = [];
    expect(scanSitemap(index(["http://a.test/s.xml"]), (loc, isIndex) => (seen.push([loc, isIndex]), true))).toBe("index");
    expect(seen).toEqual([["http://a.test/s.xml", true]]);
    expect(scanSitemap("<html><body>hi</body></html>", () => true)).toBe("unknown");
  });

  it("stops when the visitor says so", () => {
    const seen: string[] = [];
    scanSitemap(urlset(["http://a.test/1", "http://a.test/2", "http://a.test/3"]), (loc) => (seen.push(loc), seen.length < 2));
    expect(seen).toEqual(["http://a.test/1", "http://a.test/2"]);
  });
});
