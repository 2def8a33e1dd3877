import { describe, expect, it } from "vitest";
import { decodeText } from "../../../src/engines/local/fetch/index.js";

// 日本語 in Shift_JIS
const SJIS = Buffer.from([0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea]);

describe("decodeText", () => {
  it("uses the charset of the Content-Type header", () => {
    const body = Buffer.from([0x93, 0x68, 0x69, 0x94, 0x20, 0xe9, 0x80]);
    expect(decodeText(body, "text/html; charset=windows-1252")).toBe("“hi” é€");
    expect(decodeText(body, 'text/html; Charset="Windows-1252"')).toBe("“hi” é€");
    // Browsers read latin1 labels as windows-1252.
    expect(decodeText(body, "text/html; charset=ISO-8859-1")).toBe("“hi” é€");
  });

  it("reads iso-8859-2 and koi8-r from the header", () => {
    expect(decodeText(Buffer.from([0xb1, 0xe6]), "text/plain;charset=iso-8859-2")).toBe("ąć");
    expect(decodeText(Buffer.from([0xf0, 0xd2, 0xc9, 0xd7, 0xc5, 0xd4]), "text/html; charset=koi8-r")).toBe("Привет");
  });

  it("sniffs <meta charset> when the header has none", () => {
    const html = Buffer.concat([Buffer.from('<html><head><meta charset="shift_jis"><title>'), SJIS, Buffer.from("</title>")]);
    expect(decodeText(html, "text/html")).toContain("<title>日本語</title>");
  });

  it("sniffs <meta http-equiv> with a charset in its content", () => {
    const html = Buffer.concat([Buffer.from('<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">'), SJIS]);
    expect(decodeText(html, undefined)).toContain("日本語");
  });

  it("ignores a meta charset past the first 4 KiB", () => {
    const html = Buffer.concat([Buffer.from(" ".repeat(5000) + '<meta charset="shift_jis">'), SJIS]);
    expect(decodeText(html, "text/html")).not.toContain("日本語");
  });

  it("follows a byte-order mark, over a header that contradicts it", () => {
    const utf8 = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("héllo")]);
    expect(decodeText(utf8, "text/html; charset=windows-1252")).toBe("héllo");
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("héllo", "utf16le")]);
    expect(decodeText(utf16, undefined)).toBe("héllo");
  });

  it("falls back to UTF-8 for an unknown label, without throwing", () => {
    expect(decodeText(Buffer.from("héllo"), "text/html; charset=no-such-charset")).toBe("héllo");
    expect(decodeText(Buffer.from('<meta charset="bogus">héllo'), undefined)).toContain("héllo");
  });

  it("defaults to UTF-8 and replaces bytes it cannot decode", () => {
    expect(decodeText(Buffer.from("naïve ✓"), undefined)).toBe("naïve ✓");
    expect(decodeText(Buffer.from([0x61, 0xff, 0x62]), "text/plain")).toBe("a\uFFFDb");
    expect(decodeText(Buffer.alloc(0), undefined)).toBe("");
  });
});
