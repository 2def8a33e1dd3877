import { describe, expect, it } from "vitest";
import { largestSrcsetCandidate, parseSrcset, UrlResolver } from "../../../src/engines/local/html/urls.js";

describe("UrlResolver", () => {
  const urls = new UrlResolver("https://example.com/a/b/page.html?x=1#top");

  it("joins plain relative forms by string and agrees with the URL parser", () => {
    for (const href of ["/root", "//cdn.example.org/x.js", "#frag", "?q=2", "c/d.html", "", "./e", "../f", "../../../g", "sp ace", "ü.html", "a\\b"]) {
      expect(urls.resolve(href)).toBe(new URL(href, "https://example.com/a/b/page.html?x=1#top").href);
    }
  });

  it("keeps absolute URLs as written (trimmed, tabs and newlines removed)", () => {
    expect(urls.resolve("  HTTPS://Example.com/X  ")).toBe("HTTPS://Example.com/X");
    expect(urls.resolve("mailto:a@b.c")).toBe("mailto:a@b.c");
    expect(urls.resolve("https://x.org/a\n/b")).toBe("https://x.org/a/b");
  });

  it("uses <base href> resolved against the page, and survives bad inputs", () => {
    expect(new UrlResolver("https://example.com/a/", "../base/").resolve("x")).toBe("https://example.com/base/x");
    expect(new UrlResolver("not a url").resolve("/x")).toBeUndefined();
    expect(new UrlResolver("not a url").resolve("https://ok.org/")).toBe("https://ok.org/");
    expect(urls.resolve("http://[bad")).toBe("http://[bad");
  });
});

describe("srcset", () => {
  it("parses candidates, commas inside URLs included", () => {
    expect(parseSrcset("a.jpg 1x, https://cdn/x_100,h_50/b.jpg 2x,c.jpg")).toEqual([
      { url: "a.jpg", w: 0, x: 1 },
      { url: "https://cdn/x_100,h_50/b.jpg", w: 0, x: 2 },
      { url: "c.jpg", w: 0, x: 1 },
    ]);
  });

  it("picks the largest candidate by width, else density (src counting as 1x)", () => {
    expect(largestSrcsetCandidate("s.jpg 320w, l.jpg 1024w, m.jpg 640w", "src.jpg")).toBe("l.jpg");
    expect(largestSrcsetCandidate("half.jpg 0.5x", "src.jpg")).toBe("src.jpg");
    expect(largestSrcsetCandidate("", "src.jpg")).toBeUndefined();
  });
});
