import type { UrlSource } from "../core/index.js";

/**
 * Glob → RegExp. `**` crosses `/`, `*` and `?` do not; `[abc]`, `[0-9]` and `[!x]` match one
 * character of (or not of) a set. A glob that starts with `/` is matched against the URL's path
 * (and query); any other glob against the whole URL.
 */
export function globToRegExp(glob: string): RegExp {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === "*") {
      if (glob[i + 1] !== "*") {
        out += "[^/]*";
        continue;
      }
      i++;
      if (glob[i + 1] === "/") {
        i++;
        out += "(?:.*/)?"; // `**/`: any number of whole segments, including none
      } else {
        out += ".*";
      }
    } else if (ch === "?") out += "[^/]";
    else if (ch === "[" && glob.indexOf("]", i + 2) > i) {
      const end = glob.indexOf("]", i + 2);
      let set = glob.slice(i + 1, end);
      const negated = set.startsWith("!") || set.startsWith("^");
      if (negated) set = set.slice(1);
      out += `[${negated ? "^/" : ""}${set.replace(/[\\\]^]/g, "\\$&")}]`;
      i = end;
    } else out += ch.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${out}$`);
}

export function matchesGlob(url: string, glob: string): boolean {
  const re = globToRegExp(glob);
  if (!glob.startsWith("/")) return re.test(url);
  try {
    const parsed = new URL(url);
    return re.test(parsed.pathname) || re.test(parsed.pathname + parsed.search);
  } catch {
    return false;
  }
}

/** Applies a source's include/exclude globs and limit to candidate URLs, keeping first-seen order. */
export function selectUrls(candidates: Iterable<string>, source: UrlSource): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const url of candidates) {
    if (seen.has(url)) continue;
    seen.add(url);
    if (source.include?.length && !source.include.some((g) => matchesGlob(url, g))) continue;
    if (source.exclude?.some((g) => matchesGlob(url, g))) continue;
    out.push(url);
    if (source.limit !== undefined && out.length >= source.limit) break;
  }
  return out;
}
