import { readdirSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { ScrapelineError } from "../../core/index.js";

/** A file a parse step reads: where it is, and how the step names it (relative to the pipeline's directory). */
export interface FileMatch {
  path: string;
  /** Relative to the base directory, with forward slashes (or the absolute path when outside it). */
  name: string;
}

/** Directory entries visited for one pattern at most: a `**` over a huge tree stops with an error. */
const MAX_VISITED = 200_000;

const GLOB = /[*?[{]/;

/**
 * The files of a parse step's `files`: each entry a path or a glob (`*`, `**`, `?`, `[abc]`,
 * `{a,b}`) relative to `base`; a glob's matches sorted by name, entries in the order written,
 * each file once. Unless `allowOutside`, nothing outside `base` (symbolic links resolved) is
 * returned: a path that leaves it is an error. A glob matching nothing is reported in `unmatched`;
 * a plain path is returned whether or not it exists (reading it reports what is wrong).
 */
export function expandFiles(patterns: readonly string[], base: string, allowOutside: boolean): { files: FileMatch[]; unmatched: string[] } {
  const root = realOrSelf(base);
  const seen = new Set<string>();
  const files: FileMatch[] = [];
  const unmatched: string[] = [];
  const add = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    files.push({ path, name: nameOf(path, base) });
  };
  for (const pattern of patterns) {
    if (!GLOB.test(pattern)) {
      const path = resolve(base, pattern);
      if (!allowOutside) assertInside(path, root, base, pattern);
      add(path);
      continue;
    }
    const segments = pattern.replace(/\\/g, "/").split("/");
    const fixed: string[] = [];
    while (segments.length > 1 && !GLOB.test(segments[0]!)) fixed.push(segments.shift()!);
    const start = resolve(base, fixed.join("/") || ".");
    if (!allowOutside) assertInside(start, root, base, pattern);
    const matcher = globRegExp(segments.join("/"));
    const found = walk(start, pattern).filter((rel) => matcher.test(rel)).sort();
    const inside = found.map((rel) => join(start, rel)).filter((path) => allowOutside || isInside(realOrSelf(path), root));
    if (inside.length === 0) unmatched.push(pattern);
    inside.forEach(add);
  }
  return { files, unmatched };
}

function walk(start: string, pattern: string): string[] {
  const out: string[] = [];
  let visited = 0;
  const visit = (dir: string, prefix: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (++visited > MAX_VISITED) throw new ScrapelineError("invalid-input", `files: ${pattern} walks more than ${MAX_VISITED} directory entries; narrow it`);
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) visit(join(dir, entry.name), rel);
      else if (entry.isFile() || (entry.isSymbolicLink() && isFile(join(dir, entry.name)))) out.push(rel);
    }
  };
  visit(start, "");
  return out;
}

/** A glob (forward slashes) as an anchored regular expression over relative paths. */
export function globRegExp(glob: string): RegExp {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*" && glob[i + 1] === "*") {
      const slash = glob[i + 2] === "/";
      out += slash ? "(?:[^/]*/)*" : ".*";
      i += slash ? 2 : 1;
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 1);
      if (end < 0) out += "\\[";
      else {
        out += `[${glob.slice(i + 1, end).replace(/^!/, "^").replace(/\\/g, "\\\\")}]`;
        i = end;
      }
    } else if (c === "{") {
      const end = glob.indexOf("}", i + 1);
      if (end < 0) out += "\\{";
      else {
        out += `(?:${glob.slice(i + 1, end).split(",").map((alt) => alt.replace(/[.+^$()|\\]/g, "\\$&").replace(/\*/g, "[^/]*")).join("|")})`;
        i = end;
      }
    } else out += c.replace(/[.+^$()|\\\]]/g, "\\$&");
  }
  return new RegExp(`^${out}$`);
}

function assertInside(path: string, root: string, base: string, pattern: string): void {
  if (isInside(realOrSelf(path), root)) return;
  throw new ScrapelineError("invalid-input", `files: ${pattern} is outside the pipeline's directory ${base}; set allowOutside: true to read it`);
}

function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/** The real path (symbolic links resolved) of what exists; for a missing file, its real directory joined with its name. */
function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = resolve(path, "..");
    if (parent === path) return path;
    return join(realOrSelf(parent), relative(parent, path));
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function nameOf(path: string, base: string): string {
  const rel = relative(base, path);
  return rel.startsWith("..") || isAbsolute(rel) ? path : rel.split(sep).join("/");
}
