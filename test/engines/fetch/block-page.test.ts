import { describe, expect, it } from "vitest";
import { detectBlockPage } from "../../../src/engines/local/fetch/index.js";
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
