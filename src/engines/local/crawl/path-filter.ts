import { ScrapelineError } from "../../../core/index.js";

/** The path rules of a crawl request. */
export interface PathFilterOptions {
  includePaths: readonly string[];
  excludePaths: readonly string[];
  regexOnFullURL: boolean;
}

/**
 * The include/exclude rule of a crawl as a predicate: the patterns are tested against the
 * pathname (the whole URL with `regexOnFullURL`); any exclude match refuses, and when includes
 * are given one of them must match. An invalid pattern is an `invalid-input` error, raised here
 * so it fails before anything is fetched.
 */
export function pathFilter(options: PathFilterOptions): (url: URL) => boolean {
  const include = compile(options.includePaths, "includePaths");
  const exclude = compile(options.excludePaths, "excludePaths");
  return (url) => {
    const target = options.regexOnFullURL ? url.href : url.pathname;
    if (exclude.some((re) => re.test(target))) return false;
    return include.length === 0 || include.some((re) => re.test(target));
  };
}

function compile(patterns: readonly string[], field: string): RegExp[] {
  return patterns.map((pattern) => {
    try {
      return new RegExp(pattern);
    } catch (cause) {
      throw new ScrapelineError("invalid-input", `${field}: ${JSON.stringify(pattern)} is not a valid regular expression`, { cause });
    }
  });
}
