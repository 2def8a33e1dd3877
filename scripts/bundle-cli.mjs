#!/usr/bin/env node
// Part of `npm run build`: bundles the CLI so a command starts by reading a few files rather than
// the sixty modules tsc writes for it and the many files of yargs. The bundle replaces
// dist/cli/main.js; the modules each command loads when it runs become chunks beside it, still
// loaded only by the command that needs them. A path a module finds from its own URL
// (`new URL("../../schemas/", import.meta.url)`) is rewritten to lead to the same file from
// dist/cli/, where the bundle runs. Packages other than the few every start
// needs stay outside the bundle and load from node_modules as before. The bundle's module map is
// written to dist/cli/bundle-meta.json (test/cli/startup.test.ts reads it).
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, relative, resolve } from "node:path";
import { build } from "esbuild";

const root = new URL("../", import.meta.url);
const outdir = new URL("dist/cli/", root);
/**
 * Packages bundled: those every start loads (the command line) and those `validate` loads (yaml,
 * and ipaddr.js and croner for its checks of addresses and schedules), which from node_modules cost
 * a package lookup each and, for CommonJS, a scan of its exports. The others load from node_modules.
 */
const BUNDLED = new Set(["yargs", "fastest-levenshtein", "yaml", "ipaddr.js", "croner"]);
const CHUNK = /-[A-Z0-9]{8}\.js(\.map)?$/;
const MARK = "// scrapeline: the CLI's bundle";

const entry = new URL("dist/cli/main.js", root);
// (Below its first line, `#!/usr/bin/env node`.)
if (readFileSync(entry, "utf8").split("\n", 2).includes(MARK)) {
  console.error("bundle-cli: dist/cli/main.js is already the bundle; `npm run build` compiles it anew first");
  process.exit(1);
}

const pkg = JSON.parse(readFileSync(new URL("package.json", root), "utf8"));
const external = Object.keys(pkg.dependencies).filter((name) => !BUNDLED.has(name));

// Chunks of an earlier build: their names change with their content.
for (const file of readdirSync(outdir)) if (CHUNK.test(file)) rmSync(new URL(file, outdir));

/** `new URL("<relative path>", import.meta.url)` in a compiled module, rewritten to hold from dist/cli/. */
const samePlaceFromBundle = {
  name: "same-place-from-bundle",
  setup(build) {
    build.onLoad({ filter: /\/dist\/.*\.js$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      const contents = source.replace(/new URL\((["'])(\.{1,2}\/[^"']*)\1, import\.meta\.url\)/g, (_, quote, path) => {
        let moved = relative(outdir.pathname, resolve(dirname(args.path), path));
        if (!moved.startsWith(".")) moved = `./${moved}`;
        if (path.endsWith("/") && !moved.endsWith("/")) moved += "/";
        return `new URL(${quote}${moved}${quote}, import.meta.url)`;
      });
      return { contents, loader: "js" };
    });
  },
};

/** The module a plain `validate` loads (src/cli/quick-validate.ts): bundled on its own, below. */
const QUICK_VALIDATE = "./quick-validate.js";
const quickValidateApart = {
  name: "quick-validate-apart",
  setup(build) {
    build.onResolve({ filter: /^\.\/quick-validate\.js$/ }, (args) => (args.importer === new URL("quick-commands.js", outdir).pathname ? { path: QUICK_VALIDATE, external: true } : undefined));
  },
};

/**
 * yargs looks for a package.json above its own file (for a version nobody asked: the CLI gives its
 * own), from the folder above "node_modules" in its path. Bundled, its path has none, and it
 * looked from the working directory up instead, listing each folder it passed: 15 ms a start in a
 * folder of 27,000 entries. From the bundle it looks in the package's own folder, which holds package.json.
 */
const YARGS_SHIM = /\/yargs\/lib\/platform-shims\/esm\.mjs$/;
const yargsLooksAtHome = {
  name: "yargs-looks-at-home",
  setup(build) {
    build.onLoad({ filter: YARGS_SHIM }, async (args) => {
      const source = await readFile(args.path, "utf8");
      const guess = "__dirname.substring(0, __dirname.lastIndexOf('node_modules'))";
      if (!source.includes(guess)) throw new Error(`bundle-cli: ${args.path} no longer finds its package.json as this build expects; look at how it does now`);
      return { contents: source.replace(guess, 'fileURLToPath(new URL("../../", import.meta.url))'), loader: "js" };
    });
  },
};

const result = await build({
  entryPoints: { main: entry.pathname },
  outdir: outdir.pathname,
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20.19",
  chunkNames: "[name]-[hash]",
  external: [...external, ...external.map((name) => `${name}/*`)],
  sourcemap: "linked",
  banner: { js: MARK },
  // yaml's ES module build (published for browsers, plain JavaScript): its node build is CommonJS,
  // whose named exports a bundled dynamic import would not see. They differ only in how warnings
  // are logged, and the loader turns those off.
  alias: { yaml: new URL("node_modules/yaml/browser/index.js", root).pathname },
  metafile: true,
  plugins: [samePlaceFromBundle, quickValidateApart, yargsLooksAtHome],
  logLevel: "warning",
});

// A plain `validate` (answered without the parser) reads one file rather than the dozen chunks its
// modules are split into above: they are bundled again, whole, into dist/cli/quick-validate.cjs.
// CommonJS, so that on a Node without a compile cache of its own (before 22.1) the code cache the
// build saves for it can be used (scripts/gen-code-cache.mjs, src/cli/code-cache.ts).
await build({
  entryPoints: [new URL(QUICK_VALIDATE, outdir).pathname],
  outfile: new URL("quick-validate.cjs", outdir).pathname,
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20.19",
  external: [...external, ...external.map((name) => `${name}/*`)],
  sourcemap: "linked",
  // import.meta.url, which CommonJS has not: the file's own URL.
  define: { "import.meta.url": "__fileUrl" },
  banner: { js: `${MARK}\nconst __fileUrl = require("node:url").pathToFileURL(__filename).href;` },
  alias: { yaml: new URL("node_modules/yaml/browser/index.js", root).pathname },
  plugins: [samePlaceFromBundle],
  logLevel: "warning",
});

const rel = (path) => path.replace(/^.*?dist\/cli\//, "");
const outputs = Object.fromEntries(
  Object.entries(result.metafile.outputs)
    .filter(([file]) => file.endsWith(".js"))
    .map(([file, output]) => [rel(file), { imports: output.imports.filter((i) => i.kind === "import-statement" && !i.external).map((i) => rel(i.path)), inputs: Object.keys(output.inputs) }]),
);
writeFileSync(new URL("bundle-meta.json", outdir), `${JSON.stringify({ entry: "main.js", outputs }, null, 1)}\n`);
