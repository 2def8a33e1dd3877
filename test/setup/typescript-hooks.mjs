// Module hooks that let Node itself load the project's TypeScript sources, as vitest does for
// test files: a worker thread started by the code under test (the store's writer thread) runs
// its entry module through Node, not through vitest. Registered by register-typescript.mjs.
//
// Each module's JavaScript is kept in node_modules/.cache/scrapeline-typescript/ under a digest of
// its path and source, so a thread whose modules are unchanged reads them back instead of loading
// the TypeScript compiler (seconds on a busy machine) for each thread the suite starts.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { readFile, rename, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

const CACHE = new URL("../../node_modules/.cache/scrapeline-typescript/", import.meta.url);
let typescript;
let compilerVersion;

/** `./x.js` written in a TypeScript source (NodeNext style) means `./x.ts` when only that exists. */
export async function resolve(specifier, context, next) {
  if (specifier.endsWith(".js") && (specifier.startsWith(".") || specifier.startsWith("file:"))) {
    const url = new URL(specifier, context.parentURL);
    const source = new URL(url.href.replace(/\.js$/, ".ts"));
    if (url.protocol === "file:" && !existsSync(url) && existsSync(source)) return { url: source.href, shortCircuit: true };
  }
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (!url.startsWith("file:") || !url.endsWith(".ts")) return next(url, context);
  const path = fileURLToPath(url);
  const text = await readFile(path, "utf8");
  compilerVersion ??= JSON.parse(readFileSync(new URL("../../node_modules/typescript/package.json", import.meta.url), "utf8")).version;
  const cached = new URL(`${createHash("sha256").update(`${compilerVersion}\0${path}\0${text}`).digest("hex")}.js`, CACHE);
  const kept = await readFile(cached, "utf8").catch(() => undefined);
  if (kept !== undefined) return { format: "module", source: kept, shortCircuit: true };
  typescript ??= (await import("typescript")).default;
  const { outputText } = typescript.transpileModule(text, {
    fileName: path,
    compilerOptions: { module: typescript.ModuleKind.ESNext, target: typescript.ScriptTarget.ES2022, verbatimModuleSyntax: true, inlineSourceMap: true },
  });
  await keep(cached, outputText);
  return { format: "module", source: outputText, shortCircuit: true };
}

/** Writes the cache entry whole or not at all (threads of several test processes may write it at once). */
async function keep(file, text) {
  try {
    mkdirSync(CACHE, { recursive: true });
    const partial = new URL(`${file.href}.${process.pid}.${Math.random().toString(36).slice(2)}`);
    await writeFile(partial, text);
    await rename(partial, file);
  } catch {
    // A cache that cannot be written only costs the next thread a compile.
  }
}
