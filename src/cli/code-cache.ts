import { existsSync, readFileSync } from "node:fs";
import module, { createRequire } from "node:module";
import { dirname } from "node:path";
import { Script } from "node:vm";

/**
 * Loads a CommonJS file of the CLI's bundle. Node 22.1 and later keep compiled code between runs
 * themselves (main.ts turns that on); before them, V8's code cache the build saved beside the file
 * (FILE + CODE_CACHE_SUFFIX, scripts/gen-code-cache.mjs) spares compiling it again, where V8
 * accepts it (the same V8 and flags; otherwise it compiles the file as usual).
 */
export function requireBundled(file: string): unknown {
  const cache = `${file}${CODE_CACHE_SUFFIX}`;
  if (typeof (module as { enableCompileCache?: unknown }).enableCompileCache === "function" || !existsSync(cache)) return createRequire(file)(file);
  return runCommonJs(file, readFileSync(cache)).exports;
}

export const CODE_CACHE_SUFFIX = ".v8-cache";

/** Compiles and runs a CommonJS file as require does (with V8's cached data when given); its exports and script. */
export function runCommonJs(file: string, cachedData?: Buffer): { exports: unknown; script: Script } {
  const script = new Script(module.wrap(readFileSync(file, "utf8")), { filename: file, cachedData });
  const holder = { exports: {} as unknown };
  (script.runInThisContext() as (...args: unknown[]) => void).call(holder.exports, holder.exports, createRequire(file), holder, file, dirname(file));
  return { exports: holder.exports, script };
}
