import { existsSync, readFileSync } from "node:fs";
import module, { createRequire } from "node:module";
import { dirname } from "node:path";
import { Script } from "node:vm";

/**
 * Loads a CommonJS file of the CLI's bundle. When the build saved V8's code cache for it on this
 * very Node (codeCacheFile, scripts/gen-code-cache.mjs), made after running it, so holding the
 * functions that ran and not only the file's top level, it is compiled with that cache (used where
 * V8 accepts it: the same V8 and flags; otherwise V8 compiles the file as usual). Otherwise it is
 * required, and Node 22.1 and later keep what they compiled as it loaded (main.ts turns that on).
 */
export function requireBundled(file: string): unknown {
  const cache = codeCacheFile(file);
  if (!existsSync(cache)) return createRequire(file)(file);
  return runCommonJs(file, readFileSync(cache)).exports;
}

/** Where the build keeps V8's code cache of a file for the Node that runs this (its version and processor). */
export function codeCacheFile(file: string): string {
  return `${file}.${process.version}-${process.arch}${CODE_CACHE_SUFFIX}`;
}

export const CODE_CACHE_SUFFIX = ".v8-cache";

/** Compiles and runs a CommonJS file as require does (with V8's cached data when given); its exports and script. */
export function runCommonJs(file: string, cachedData?: Buffer): { exports: unknown; script: Script } {
  const script = new Script(module.wrap(readFileSync(file, "utf8")), { filename: file, cachedData });
  const holder = { exports: {} as unknown };
  (script.runInThisContext() as (...args: unknown[]) => void).call(holder.exports, holder.exports, createRequire(file), holder, file, dirname(file));
  return { exports: holder.exports, script };
}
