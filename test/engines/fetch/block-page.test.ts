import { describe, expect, it } from "vitest";
import { detectBlockPage } from "../../../src/engines/local/fetch/index.js";
import { visibleText, visibleTextWithin } from "../../../src/engines/local/fetch/block-page.js";
import { blockPages, ordinaryPages } from "./block-corpus.js";

describe("block-page corpus", () => {
  const blocks = blockPages();
  const ordinary = ordinaryPages();

  it("holds every vendor and at least 30 ordinary pages", () => {
    expect(new Set(blocks.map((p) => p.vendor))).toEqual(new Set(["Cloudflare", "Akamai", "PerimeterX", "DataDome", "Imperva", "AWS WAF", "hCaptcha", "reCAPTCHA", "Turnstile", "a JavaScript and cookie check"]));
    expect(ordinary.length).toBeGreaterThanOrEqual(30);
  });

  it("tells every block page with its vendor", () => {
    const told = blocks.map((page) => ({ file: page.file, vendor: detectBlockPage(page) }));
    expect(told).toEqual(blocks.map((page) => ({ file: page.file, vendor: page.vendor })));
  });

  it("flags no ordinary page", () => {
    const flagged = ordinary.map((page) => ({ file: page.file, vendor: detectBlockPage(page) })).filter((p) => p.vendor !== undefined);
    expect(flagged).toEqual([]);
  });
});

describe("detectBlockPage", () => {
  const cloudflare = blockPages().find((p) => p.file.includes("cloudflare-managed-challenge"))!;

  it("tells a challenge by its header alone, whatever the body", () => {
    expect(detectBlockPage({ status: 403, headers: { "cf-mitigated": "challenge" }, html: "<html><body></body></html>" })).toBe("Cloudflare");
  });

  it("does not take a vendor's markers in a long article for a block", () => {
    const article = cloudflare.html.replace("</body>", `<article>${"<p>A long article paragraph about prices and products, written for people. </p>".repeat(40)}</article></body>`);
    expect(detectBlockPage({ status: 200, headers: {}, html: article.replace(/window\._cf_chl_opt[^;]*;/, "") .replace(/__cf_chl_tk=\w+/, "") })).toBeUndefined();
  });

  it("does not take a captcha page with a field to fill in for a block", () => {
    const page = blockPages().find((p) => p.vendor === "hCaptcha")!;
    expect(detectBlockPage(page)).toBe("hCaptcha");
    expect(detectBlockPage({ ...page, html: page.html.replace("<button", '<input name="email"><button') })).toBeUndefined();
  });
});

describe("visibleTextWithin", () => {
  const words = "Quarterly figures for the northern region rose again";
  // Pages whose scripts, comments, head, tags and references could run across any place the first look ends.
  const pages = [
    `<html><head><title>t</title></head><body><p>${words} &amp; ${words}</p><script>var a = "<p>${words}</p>";</script><p>end</p></body></html>`,
    `<html><body><p>Short</p><script>if (a > b) { x = "${words} ${words}"; }</script><p>tail</p></body></html>`,
    `<html><body><p>Short</p><!-- ${words} > ${words} --><p>tail</p><!-- a > ${words} ${words} ${words} > b --></body></html>`,
    `<html><HEAD><title>${words} ${words}</title><meta content="a>b"></HEAD><body><p>Short text</p></body></html>`,
    `<html><body><p>a < b and ${words}</p><p>a <b>bold</b> word ${words}</p></body></html>`,
    `<html><body><p>&amp;&amp;&amp;&ampx&nbsp;&nbsp &notit; &#x41;&#66; ${words}</p></body></html>`,
    `<html><body><p>${"a\u3000\u00a0\u2028b\ufeff\u200a\u205fc&nbsp;&nbsp;d ".repeat(12)}</p></body></html>`,
    `<html><body><p>${`a${"\u3000".repeat(10)}b\u00a0\u2028\ufeff `.repeat(29)}</p></body></html>`,
    `<html><body><a title="x>y ${words}" href="/">link</a><SCRIPT type="x">${words} > ${words}</SCRIPT ><p>${words}</p></body></html>`,
    `<html><body><svg><text>${words} > ${words}</text></svg><template><p>${words}</p></template><p>seen</p></body></html>`,
    `<p>${words}</p><head><title>late head ${words} > x</title></head><p>${words}</p>`,
    `<html><body><p>Short</p><p data-note="${words} ${words} <!-- a --> ${words}">tail</p></body></html>`,
  ];

  it("gives the whole page's visible text, or undefined for more than max, wherever its first look ends", () => {
    for (const html of pages) {
      for (const max of [5, 40, 120, 1000]) {
        const text = visibleText(html);
        const expected = text.length > max ? undefined : text;
        for (let firstLook = 0; 2 * firstLook < html.length; firstLook++) expect([html, max, firstLook, visibleTextWithin(html, max, firstLook)]).toEqual([html, max, firstLook, expected]);
      }
    }
  });

  it("reads only the first part of a long article", () => {
    const html = `<html><body>${`<p>${words}</p>`.repeat(2000)}</body></html>`;
    expect(visibleTextWithin(html, 1500)).toBeUndefined();
    expect(visibleTextWithin(`<html><body><p>${words}</p><script>${"x > y;".repeat(5000)}</script></body></html>`, 1500)).toBe(`${words}`);
  });
});
