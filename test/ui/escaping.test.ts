import { describe, expect, it } from "vitest";
import { lineDiff } from "../../src/app/ui-data/diff.js";
import { presentedKey, isLoopback, loopbackHostHeader } from "../../src/ui/auth.js";
import { CONTENT_SECURITY_POLICY, PREVIEW_POLICY } from "../../src/ui/headers.js";
import { escapeHtml, html, trusted } from "../../src/ui/html.js";
import { renderMarkdown, safeUrl } from "../../src/ui/markdown.js";
import { diffTable, jsonChangesTable } from "../../src/ui/views/diff.js";

describe("the html tag", () => {
  it("escapes every interpolated value, joins arrays, drops null and booleans, and keeps Html as it is", () => {
    const evil = `<script>"x" & 'y' \`z\`</script>`;
    expect(html`<p title="${evil}">${evil}</p>`.value).toBe(`<p title="${escapeHtml(evil)}">&lt;script&gt;&quot;x&quot; &amp; &#39;y&#39; &#96;z&#96;&lt;/script&gt;</p>`);
    expect(html`${["<a>", html`<b>`, 1, null, undefined, false, true]}`.value).toBe("&lt;a&gt;<b>1");
    expect(html`${trusted("<em>ok</em>")}`.value).toBe("<em>ok</em>");
  });
});

describe("rendered markdown", () => {
  const page = "https://example.com/docs/page";

  it("keeps http(s) and mailto links, resolves relative ones against the page, and refuses every other scheme", () => {
    expect(safeUrl("/a?b=1", page)).toBe("https://example.com/a?b=1");
    expect(safeUrl("next", page)).toBe("https://example.com/docs/next");
    expect(safeUrl("mailto:a@b.example", page)).toBe("mailto:a@b.example");
    for (const bad of ["javascript:alert(1)", " JaVaScRiPt:alert(1)", "java\tscript:alert(1)", "java\nscript:x", "data:text/html,<script>", "vbscript:x", "file:///etc/passwd", "blob:https://x/y"]) {
      expect(safeUrl(bad, page), bad).toBeUndefined();
    }
    expect(safeUrl("/relative", undefined)).toBeUndefined();
    expect(safeUrl("/relative", "javascript:alert(1)")).toBeUndefined();
  });

  it("shows raw HTML as text, unlinks script URLs, turns images into links, and never emits a handler", () => {
    const out = renderMarkdown(
      `<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n[a](javascript:alert(1)) [b](/ok) ![c](data:image/png;base64,AA) ![d](/pic.png)\n\n[r]: javascript:alert(2)\n\n[ref][r]`,
      page,
    ).value;
    expect(out).not.toMatch(/<script|<img|<[^>]*\son\w+=|href="(?!https:)/i);
    expect(out).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(out).toContain('<a href="https://example.com/ok" rel="nofollow noopener noreferrer">b</a>');
    expect(out).toContain('<a class="image-ref" href="https://example.com/pic.png" rel="nofollow noopener noreferrer">[image: d]</a>');
    expect(out).toContain('<span class="image-ref">[image: c]</span>');
    expect(out).toMatch(/<p>a <a href="https:\/\/example.com\/ok"/);
    expect(out).toContain("<p>ref</p>");
  });
});

describe("diff tables", () => {
  const previous = ["# Title", "", "old line", ...Array.from({ length: 20 }, (_, i) => `same ${i}`), "tail"].join("\n");
  const current = previous.replace("old line", "new line").replace("tail", "tail changed");

  it("pairs a changed line side by side and folds unchanged stretches beyond the context", () => {
    const diff = { url: "u", tag: null, from: { version: 1 } as never, to: { version: 2 } as never, ...lineDiff(previous, current), tooLarge: false };
    expect([diff.added, diff.removed]).toEqual([2, 2]);
    const side = diffTable(diff, "side").value;
    expect(side).toContain('<tr class="pair"><td class="ln">3</td><td class="text del">old line</td><td class="ln">3</td><td class="text add">new line</td></tr>');
    expect(side).toMatch(/<summary>14 unchanged line\(s\)<\/summary>/);
    const inline = diffTable(diff, "inline").value;
    expect(inline.indexOf(">old line<")).toBeLessThan(inline.indexOf(">new line<"));
    expect(inline).toContain('<td class="mark">-</td><td class="text">old line</td>');
    expect(diffTable({ ...diff, ...lineDiff(previous, previous) }, "side").value).toContain("the same text");
  });

  it("shows json-mode field changes as a table, escaped", () => {
    const out = jsonChangesTable({ price: { previous: 10, current: "<b>12</b>" }, gone: { previous: "x" } }).value;
    expect(out).toContain("<td><code>price</code></td>");
    expect(out).toContain("&lt;b&gt;12&lt;/b&gt;");
    expect(out).toContain("(absent)");
  });
});

describe("access", () => {
  it("reads a key from Bearer or from Basic's password", () => {
    expect(presentedKey("Bearer abc")).toBe("abc");
    expect(presentedKey(`Basic ${Buffer.from("user:k:with:colons").toString("base64")}`)).toBe("k:with:colons");
    expect(presentedKey(`Basic ${Buffer.from("user:").toString("base64")}`)).toBeUndefined();
    expect(presentedKey(undefined)).toBeUndefined();
  });

  it("knows loopback hosts and Host headers", () => {
    for (const host of ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost"]) expect(isLoopback(host), host).toBe(true);
    for (const host of ["0.0.0.0", "10.0.0.1", "example.com", "::"]) expect(isLoopback(host), host).toBe(false);
    expect(loopbackHostHeader("127.0.0.1:7777")).toBe(true);
    expect(loopbackHostHeader("[::1]:7777")).toBe(true);
    expect(loopbackHostHeader("localhost.attacker.example:7777")).toBe(false);
    expect(loopbackHostHeader(undefined)).toBe(false);
  });

  it("allows no inline script or style, no other origin and no framing", () => {
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe|\*|https?:/);
    // A stored page's HTML preview: sandboxed, no script, nothing loaded.
    expect(PREVIEW_POLICY.split("; ")[0]).toBe("sandbox");
    expect(PREVIEW_POLICY).toContain("default-src 'none'");
    expect(PREVIEW_POLICY).not.toMatch(/script-src|allow-scripts|https?:/);
  });
});
