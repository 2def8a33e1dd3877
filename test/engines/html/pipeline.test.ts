import { describe, expect, it } from "vitest";
import { markdown, run } from "./helpers.js";

describe("cleaning", () => {
  it("drops head, scripts, styles, noscript, templates, comments and svg internals", () => {
    const html = `<html><head><title>T</title><style>p{}</style><script>var x = "<p>no</p>";</script></head>
      <body><!-- note --><noscript>enable js</noscript><template><p>tpl</p></template>
      <svg><text>svg text</text></svg><p>Kept</p><script>alert(1)</script></body></html>`;
    const result = run(html);
    expect(result.markdown).toBe("Kept\n");
    expect(result.html).not.toMatch(/script|style|noscript|template|note|svg text/);
    expect(result.html).toContain("<svg></svg>");
  });

  it("moves content out of an unclosed head, as a browser does", () => {
    expect(markdown("<head><title>x</title><p>Body text</p>")).toBe("Body text\n");
  });

  it("keeps only elements matching includeTags, in selector order", () => {
    const html = '<div class="a">A1</div><p id="b">B</p><div class="a">A2</div><nav>N</nav>';
    expect(markdown(html, { includeTags: ["#b", ".a"] })).toBe("B\n\nA1\n\nA2\n");
  });

  it("removes elements matching excludeTags, and ignores unparsable selectors", () => {
    const html = '<p class="ad">Ad</p><p>Text</p><footer>F</footer><p data-x="1">X</p>';
    expect(markdown(html, { excludeTags: [".ad", "footer", "[data-x]", "!!bad"] })).toBe("Text\n");
  });

  it("blockAds removes ad slots, ad iframes and cookie banners but not look-alike words", () => {
    const html = `<div class="ad-slot">Buy</div><ins class="adsbygoogle"></ins><div id="cookie-banner">We use cookies</div>
      <iframe src="https://googleads.g.doubleclick.net/x"></iframe><div class="header shadow badge">Kept</div><p>Text</p>`;
    expect(markdown(html, { blockAds: true })).toBe("Kept\n\nText\n");
    expect(markdown(html, { blockAds: false })).toContain("We use cookies");
  });

  it("removeBase64Images replaces data: images in markdown only", () => {
    const html = '<p><img alt="dot" src="data:image/png;base64,iVBORw0KGgo="> <img alt="ok" src="/x.png"></p>';
    const result = run(html, { removeBase64Images: true });
    expect(result.markdown).toBe("![dot](<Base64-Image-Removed>) ![ok](https://example.com/x.png)\n");
    expect(result.html).toContain("data:image/png;base64,iVBORw0KGgo=");
    expect(run(html).markdown).toContain("](data:image/png;base64,iVBORw0KGgo=)");
  });
});

describe("urls", () => {
  it("makes hrefs and srcs absolute against <base href>, itself resolved against the page", () => {
    const html = '<base href="/docs/"><a href="guide.html">g</a><a href="../up">u</a><img src="i.png"><a href="//cdn.org/x">c</a><a href="?q=1">q</a>';
    const result = run(html);
    expect(result.links).toEqual(["https://example.com/docs/guide.html", "https://example.com/up", "https://cdn.org/x", "https://example.com/docs/?q=1"]);
    expect(result.html).toContain('src="https://example.com/docs/i.png"');
    expect(result.html).toContain('href="https://example.com/docs/guide.html"');
  });

  it("sets the largest srcset candidate as src in the html output", () => {
    const result = run('<img src="a.jpg" srcset="a-400.jpg 400w, a-1600.jpg 1600w, a-800.jpg 800w">');
    expect(result.html).toContain('src="https://example.com/blog/a-1600.jpg"');
  });

  it("escapes attribute values in the html output", () => {
    expect(run('<p title="a &amp; &quot;b&quot;">x</p>').html).toBe('<p title="a &amp; &quot;b&quot;">x</p>');
  });
});

describe("links", () => {
  it("lists trimmed absolute http(s) and mailto links, fragments stripped, deduplicated in order", () => {
    const html = `<a href=" /a#top ">1</a><a href="#only">2</a><a href="mailto:me@x.org">3</a><a href="https://o.org/b">4</a>
      <a href="/a">5</a><a href="javascript:go()">6</a><a href="tel:123">7</a><a>8</a>`;
    expect(run(html).links).toEqual(["https://example.com/a", "mailto:me@x.org", "https://o.org/b"]);
  });

  it("follow the cleaned content, as the service's: excluded and non-main links are gone", () => {
    const html = '<header><nav><a href="/n">n</a></nav></header><main><h1>The story</h1><p>Words of the main content, long enough to be it, with <a href="/p">a link</a> among them, and more words after the link so that the paragraph reads as text.</p></main><footer><a href="/f">f</a></footer>';
    expect(run(html, { excludeTags: ["nav", "footer"] }).links).toEqual(["https://example.com/p"]);
    expect(run(html, { includeTags: ["main"] }).links).toEqual(["https://example.com/p"]);
    const main = run(html, { onlyMainContent: true });
    expect(main.links).toContain("https://example.com/p");
    expect(main.links).not.toContain("https://example.com/f");
    // Exactly the links the content shows.
    expect(main.links).toEqual([...main.markdown!.matchAll(/\]\((https:[^)]+)\)/g)].map((m) => m[1]));
  });

  it("the page's links (what a crawl follows) are the whole page's, whatever onlyMainContent, includeTags and excludeTags keep", () => {
    const html = '<header><nav><a href="/n">n</a></nav></header><main><h1>The story</h1><p>Words of the main content, long enough to be it, with <a href="/p">a link</a> among them, and more words after the link so that the paragraph reads as text.</p></main><footer><a href="/f">f</a></footer>';
    const all = ["https://example.com/n", "https://example.com/p", "https://example.com/f"];
    const pageLinks = (options: Parameters<typeof run>[1]) => run(html, { ...options, want: { markdown: true, links: true, pageLinks: true } }).pageLinks;
    expect(pageLinks({ excludeTags: ["nav", "footer"] })).toEqual(all);
    expect(pageLinks({ includeTags: ["main"] })).toEqual(all);
    expect(pageLinks({ onlyMainContent: true })).toEqual(all);
  });

  it("leave out what no output shows: scripts, templates, comments, svg internals", () => {
    const html = '<script>var a = "<a href=/s>";</script><template><a href="/t">t</a></template><!-- <a href="/c">c</a> --><svg><a href="/v">v</a></svg><noscript><a href="/ns">ns</a></noscript><a href="/ok">ok</a>';
    expect(run(html).links).toEqual(["https://example.com/ok"]);
    expect(run(html, { want: { pageLinks: true } }).pageLinks).toEqual(["https://example.com/ok"]);
  });
});

describe("images", () => {
  it("collects img, srcset, picture sources, backgrounds, posters, og/twitter images and icons", () => {
    const html = `<html><head><meta property="og:image" content="/og.png"><meta name="twitter:image" content="https://t.co/tw.png">
      <link rel="icon" href="/favicon.ico"><link rel="apple-touch-icon" href="/touch.png"></head><body>
      <img src="a.png" data-src="lazy.png" srcset="a2.png 2x"><picture><source srcset="p.webp 1x, p2.webp 2x"><img src="p.jpg"></picture>
      <div style="background-image: url('bg.jpg')"></div><video poster="/poster.jpg"></video><img src="javascript:alert(1)">
      <img src="a.png"></body></html>`;
    expect(run(html).images).toEqual([
      "https://example.com/blog/a.png", "https://example.com/blog/lazy.png", "https://example.com/blog/a2.png",
      "https://example.com/blog/p.webp", "https://example.com/blog/p2.webp", "https://example.com/blog/p.jpg",
      "https://example.com/blog/bg.jpg", "https://example.com/poster.jpg", "https://example.com/og.png",
      "https://t.co/tw.png", "https://example.com/favicon.ico", "https://example.com/touch.png",
    ]);
  });
});

describe("what is produced", () => {
  it("produces only the outputs asked for, metadata always", () => {
    const result = run("<title>T</title><p>x</p>", { want: { links: true } });
    expect(result).toEqual({ links: [], metadata: { title: "T" } });
  });
});

describe("hostile input", () => {
  it("handles empty strings, garbage and binary bytes", () => {
    for (const input of ["", "   ", "<", "</", "<<<>>>", "<a href=", "<p>unclosed <b>bold", "\u0000\u0001\u0002\uFFFD<\u0000>", String.fromCharCode(...Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256))]) {
      const result = run(input, { onlyMainContent: true });
      expect(typeof result.markdown).toBe("string");
      expect(result.metadata).toBeTypeOf("object");
    }
    expect(run("").markdown).toBe("");
  });

  it("survives very deep nesting and unmatched close tags without overflowing the stack", () => {
    const deep = "<div>".repeat(50_000) + "deep text" + "</span>".repeat(50_000);
    expect(run(deep, { onlyMainContent: true }).markdown).toBe("deep text\n");
  });

  it("processes a 10 MB page", () => {
    const para = "<p>Lorem ipsum dolor sit amet, <a href='/x'>consectetur</a> adipiscing elit, sed do eiusmod tempor.</p>";
    const page = `<html><body><nav>${"<a href='/n'>nav</a>".repeat(100)}</nav><article>${para.repeat(Math.ceil(10_000_000 / para.length))}</article></body></html>`;
    const result = run(page, { onlyMainContent: true });
    expect(result.markdown!.length).toBeGreaterThan(5_000_000);
    expect(result.links).toEqual(["https://example.com/x"]);
  });
});
