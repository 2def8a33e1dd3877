// Module hooks that let Node itself load the project's TypeScript sources, as vitest does for
// test files: a worker thread started by the code under test (the store's writer thread) runs
// its entry module through Node, not through vitest. Registered by register-typescript.mjs.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

let typescript;

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
  typescript ??= (await import("typescript")).default;
  const path = fileURLToPath(url);
  const { outputText } = typescript.transpileModule(await readFile(path, "utf8"), {
    fileName: path,
    compilerOptions: { module: typescript.ModuleKind.ESNext, target: typescript.ScriptTarget.ES2022, verbatimModuleSyntax: true, inlineSourceMap: true },
  });
  return { format: "module", source: outputText, shortCircuit: true };
}
