import { describe, expect, it } from "vitest";
import { MAX_URL_LENGTH, normalizeUrl, withoutTrailingSlash } from "../../../src/engines/local/crawl/index.js";
import { dedupeKey } from "../../../src/engines/local/crawl/rules.js";

describe("normalizeUrl", () => {
  it("resolves relative links against the base", () => {
    expect(normalizeUrl("../b/c?x=1", "http://site.test/a/d/e")).toBe("http://site.test/a/b/c?x=1");
    expect(normalizeUrl("//other.test/p", "https://site.test/")).toBe("https://other.test/p");
    expect(normalizeUrl("?q=2", "http://site.test/list")).toBe("http://site.test/list?q=2");
  });

  it("lower-cases scheme and host, drops default ports and fragments", () => {
    expect(normalizeUrl("HTTP://Site.TEST:80/Path#top")).toBe("http://site.test/Path");
    expect(normalizeUrl("https://site.test:443/")).toBe("https://site.test/");
    expect(normalizeUrl("https://site.test:8443/")).toBe("https://site.test:8443/");
  });

  it("keeps a trailing slash in the URL it fetches, since servers tell /a/ from /a", () => {
    expect(normalizeUrl("http://site.test/a/")).toBe("http://site.test/a/");
    expect(normalizeUrl("http://site.test/a/?x=1")).toBe("http://site.test/a/?x=1");
    expect(normalizeUrl("http://site.test")).toBe("http://site.test/");
  });

  it("treats /a/ and /a as one page when telling duplicates apart", () => {
    expect(withoutTrailingSlash("/a/")).toBe("/a");
    expect(withoutTrailingSlash("/a//")).toBe("/a");
    expect(withoutTrailingSlash("/")).toBe("/");
    expect(dedupeKey(new URL("http://site.test/a/"), false)).toBe(dedupeKey(new URL("http://site.test/a"), false));
    expect(dedupeKey(new URL("http://site.test/a/?x=1"), false)).toBe(dedupeKey(new URL("http://site.test/a?x=1"), false));
    expect(dedupeKey(new URL("https://www.site.test/a/"), true)).toBe(dedupeKey(new URL("http://site.test/a"), true));
    expect(dedupeKey(new URL("http://site.test/a/"), false)).not.toBe(dedupeKey(new URL("http://site.test/b/"), false));
  });

  it("keeps paths and query order as written", () => {
    expect(normalizeUrl("http://site.test/a/index.html")).toBe("http://site.test/a/index.html");
    expect(normalizeUrl("http://site.test/a?b=2&a=1")).toBe("http://site.test/a?b=2&a=1");
    expect(normalizeUrl("http://site.test/a?")).toBe("http://site.test/a");
  });

  it("drops an empty fragment or query marker, alone or together, and a fragment after a query", () => {
    expect(normalizeUrl("http://site.test/a#")).toBe("http://site.test/a");
    expect(normalizeUrl("http://site.test/a?#f")).toBe("http://site.test/a");
    expect(normalizeUrl("http://site.test/a?x=1#")).toBe("http://site.test/a?x=1");
    expect(normalizeUrl("http://site.test/a?x=1#", undefined, { ignoreQueryParameters: true })).toBe("http://site.test/a");
    // Encoded marks are part of the path, not markers.
    expect(normalizeUrl("http://site.test/a%3Fb%23c")).toBe("http://site.test/a%3Fb%23c");
  });

  it("drops the query only when asked", () => {
    expect(normalizeUrl("http://site.test/a?b=2#f", undefined, { ignoreQueryParameters: true })).toBe("http://site.test/a");
    expect(normalizeUrl("http://site.test/a?b=2", undefined, { ignoreQueryParameters: false })).toBe("http://site.test/a?b=2");
  });

  it("refuses what cannot be crawled", () => {
    for (const raw of ["mailto:me@site.test", "javascript:alert(1)", "data:text/html,hi", "ftp://site.test/f", "tel:+100", "", "   ", "http://"]) {
      expect(normalizeUrl(raw, "http://site.test/"), raw).toBeUndefined();
    }
    expect(normalizeUrl("not a url")).toBeUndefined();
  });

  it("refuses URLs over the length cap and accepts one at the cap", () => {
    const head = "http://site.test/";
    expect(normalizeUrl(head + "a".repeat(MAX_URL_LENGTH - head.length))).toHaveLength(MAX_URL_LENGTH);
    expect(normalizeUrl(head + "a".repeat(MAX_URL_LENGTH - head.length + 1))).toBeUndefined();
    // Short as written but long once percent-encoded.
    expect(normalizeUrl(`${head}${"é".repeat(700)}`)).toBeUndefined();
  });
});
