/**
 * Normalizers: the named, ordered rewrites applied to markdown before two versions are compared,
 * so that differences nobody cares about (spacing, a timestamp, an embedded player) do not count
 * as a change. Line order is kept: moving a line is a change.
 */
import { ScrapelineError } from "../core/index.js";
import type { NormalizeOptions, Normalizer } from "./types.js";

/** The normalizers used when none are named, in the order they run. */
export const DEFAULT_NORMALIZERS: readonly Normalizer[] = ["iframe-links", "volatile", "whitespace"];

const IFRAME_LINK = /\[iframe\]\([^)\n]*\)/g;
/** Inline whitespace that is not already a single space: a space followed by more, or any other. */
const IRREGULAR_SPACE = / [^\S\n]+|[^\S\n ][^\S\n]*/g;
/** A line end with the spaces around it and any blank lines after it. */
const LINE_BREAK = / \n[ \n]*|\n[ \n]+/g;

/**
 * Collapses runs of whitespace inside lines to one space, trims every line and drops blank
 * lines. (Same result as doing it line by line; written as three passes over the whole text
 * because that is several times faster on large pages.)
 */
export function collapseWhitespace(text: string): string {
  return text.replace(IRREGULAR_SPACE, " ").replace(LINE_BREAK, "\n").trim();
}

/** Removes `[iframe](...)` links, as the service does before comparing. */
export function dropIframeLinks(text: string): string {
  return text.replace(IFRAME_LINK, "");
}

/**
 * Compiles `volatile` patterns with the `g` and `m` flags (`^` and `$` match at line ends); an
 * invalid one is an `invalid-input` error naming it.
 */
export function compileVolatile(patterns: readonly string[]): RegExp[] {
  return patterns.map((source) => {
    try {
      return new RegExp(source, "gm");
    } catch (error) {
      throw new ScrapelineError("invalid-input", `volatile pattern ${JSON.stringify(source)} is not a valid regular expression: ${(error as Error).message}`, { cause: error });
    }
  });
}

/** Removes every match of every pattern. */
export function dropVolatile(text: string, patterns: readonly RegExp[]): string {
  let out = text;
  for (const pattern of patterns) out = out.replace(pattern, "");
  return out;
}

/**
 * Applies the normalizers in order (default: iframe-links, volatile, whitespace). Volatile
 * patterns given with an explicit list that leaves out `volatile` are an `invalid-input` error,
 * so they are never silently ignored.
 */
export function normalize(markdown: string, options: NormalizeOptions = {}): string {
  const names = options.normalizers ?? DEFAULT_NORMALIZERS;
  const patterns = compileVolatile(options.volatile ?? []);
  if (patterns.length > 0 && !names.includes("volatile")) {
    throw new ScrapelineError("invalid-input", `volatile patterns are given but the "volatile" normalizer is not in the list (${names.join(", ")})`);
  }
  let text = markdown;
  for (const name of names) {
    switch (name) {
      case "whitespace":
        text = collapseWhitespace(text);
        break;
      case "iframe-links":
        text = dropIframeLinks(text);
        break;
      case "volatile":
        text = dropVolatile(text, patterns);
        break;
      default:
        throw new ScrapelineError("invalid-input", `unknown normalizer ${JSON.stringify(name)}; choose from whitespace, volatile, iframe-links`);
    }
  }
  return text;
}
