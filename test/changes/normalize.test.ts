import { describe, expect, it } from "vitest";
import { collapseWhitespace, DEFAULT_NORMALIZERS, fingerprint, normalize, contentHash } from "../../src/changes/index.js";
import { isScrapelineError } from "../../src/core/index.js";
import { seeded } from "./helpers.js";

/** The definition collapseWhitespace must match: line by line. */
function collapseByLine(text: string): string {
  return text
    .split("\n")
    .map((line) => line.replace(/[^\S\n]+/g, " ").trim())
    .filter((line) => line !== "")
    .join("\n");
}

describe("normalize", () => {
  it("runs iframe-links, volatile and whitespace by default", () => {
    expect(DEFAULT_NORMALIZERS).toEqual(["iframe-links", "volatile", "whitespace"]);
    expect(normalize("  # Title  \n\n\n[iframe](https://player.example/v/1)\ntext\t\twith   gaps \r\n\n")).toBe("# Title\ntext with gaps");
  });

  it("whitespace: collapses runs, trims lines, drops blank lines, keeps line order", () => {
    expect(collapseWhitespace("\n\n a \u00a0 b \n\t\n c\u2028d\n\n")).toBe("a b\nc d");
    expect(collapseWhitespace("b\na")).toBe("b\na");
  });

  it("whitespace: the fast form equals the line-by-line definition", () => {
    const random = seeded(11);
    const pieces = ["a", "bc", " ", " ", "\t", "\n", "\n", "\r", "\u00a0", "\u2028", "\f"];
    for (let k = 0; k < 5000; k++) {
      const text = Array.from({ length: Math.floor(random() * 24) }, () => pieces[Math.floor(random() * pieces.length)]).join("");
      expect(collapseWhitespace(text), JSON.stringify(text)).toBe(collapseByLine(text));
    }
  });

  it("iframe-links: drops [iframe](...) links and nothing else", () => {
    expect(normalize("see [iframe](https://a.example/x?y=1) and [video](https://b.example)", { normalizers: ["iframe-links"] })).toBe("see  and [video](https://b.example)");
  });

  it("volatile: removes every match of every pattern, lines anchored with ^ and $", () => {
    const text = "Price: 10 EUR\nUpdated 2026-01-02T03:04:05Z\nsession=abc123; path=/\nLast visit: 5 minutes ago";
    const out = normalize(text, { volatile: ["\\d{4}-\\d\\d-\\d\\dT[\\d:]+Z", "session=\\w+", "^Last visit: .*$"] });
    expect(out).toBe("Price: 10 EUR\nUpdated\n; path=/");
  });

  it("applies an explicit list in its order", () => {
    // whitespace first joins the gap, so the pattern with one space matches; the other way round it does not.
    expect(normalize("a   b", { normalizers: ["whitespace", "volatile"], volatile: ["a b"] })).toBe("");
    expect(normalize("a   b", { normalizers: ["volatile", "whitespace"], volatile: ["a b"] })).toBe("a b");
    expect(normalize("  x  ", { normalizers: [] })).toBe("  x  ");
  });

  it("rejects an invalid pattern, patterns without the volatile normalizer, and unknown names", () => {
    const thrown = (fn: () => unknown): unknown => {
      try {
        fn();
      } catch (error) {
        return error;
      }
      return undefined;
    };
    const invalid = thrown(() => normalize("x", { volatile: ["(unclosed"] }));
    expect(isScrapelineError(invalid, "invalid-input")).toBe(true);
    expect((invalid as Error).message).toContain('"(unclosed"');
    expect(isScrapelineError(thrown(() => normalize("x", { normalizers: ["whitespace"], volatile: ["x"] })), "invalid-input")).toBe(true);
    expect(isScrapelineError(thrown(() => normalize("x", { normalizers: ["trim" as never] })), "invalid-input")).toBe(true);
  });
});

describe("hash", () => {
  it("contentHash is sha256 hex", () => {
    expect(contentHash("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(contentHash("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("fingerprint hashes the normalized text", () => {
    expect(fingerprint(" a \n\n b ")).toBe(contentHash("a\nb"));
    expect(fingerprint("a\nb")).not.toBe(fingerprint("b\na"));
  });
});
