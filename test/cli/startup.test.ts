import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Each command loads what it uses when it runs: the modules every start of the CLI loads (those
 * reached from dist/cli/main.js, and the command line it loads at once, by static imports) hold no store, engine, server, browser, PDF,
 * YAML or schema code. Read from the built files, as `node` loads them.
 */
const DIST = resolve("dist");

/** Static import specifiers of an ES module's source (not `import(…)` calls, not type-only imports, which the build drops). */
function staticImports(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/^\s*(?:import|export)\s+(?:[^"'();]*?\s+from\s+)?["']([^"']+)["'];?\s*$/gm)) found.push(match[1]!);
  return found;
}

/** Every file and package reached from `entries` by static imports. */
function staticGraph(...entries: string[]): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const spec of staticImports(readFileSync(file, "utf8"))) {
      if (spec.startsWith("node:")) continue;
      if (spec.startsWith(".")) {
        visit(resolve(dirname(file), spec));
        continue;
      }
      const name = spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!;
      packages.add(name);
    }
  };
  for (const entry of entries) visit(entry);
  return { files, packages };
}

/** The bundle's module map (scripts/bundle-cli.mjs): for each file of dist/cli/, its static imports and the modules in it. */
interface BundleMeta {
  entry: string;
  outputs: Record<string, { imports: string[]; inputs: string[] }>;
}

/** The packages `name` needs, itself included, as installed (nested copies included). */
function dependencyClosure(name: string, from = resolve("."), seen = new Set<string>()): Set<string> {
  let dir = from;
  while (!existsSync(resolve(dir, "node_modules", name, "package.json"))) dir = dirname(dir);
  const home = resolve(dir, "node_modules", name);
  if (seen.has(home)) return seen;
  seen.add(home);
  const pkg = JSON.parse(readFileSync(resolve(home, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
  for (const dep of Object.keys(pkg.dependencies ?? {})) dependencyClosure(dep, home, seen);
  return seen;
}

/** Package names of a closure's folders. */
const names = (homes: Set<string>) => new Set([...homes].map((home) => /node_modules\/((?:@[^/]+\/)?[^/]+)$/.exec(home)![1]!));

/** The package a bundled file came from (the innermost, for a nested copy). */
const packageOf = (input: string) => /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/.exec(input)?.[1];

describe("start-up of the CLI", () => {
  const main = resolve(DIST, "cli/main.js");
  const metaFile = resolve(DIST, "cli/bundle-meta.json");

  it.skipIf(!existsSync(resolve(DIST, "cli/cli.js")))("the command line's own modules import no store, engine, server or schema code", () => {
    const { files, packages } = staticGraph(resolve(DIST, "cli/cli.js"));
    expect([...packages].sort()).toEqual(["fastest-levenshtein", "yargs"]);
    const outside = [...files].map((f) => f.slice(DIST.length + 1)).filter((f) => !f.startsWith("cli/"));
    // The light part of app and the few pure pieces it names: no store, runner, engines or server.
    for (const file of outside) expect(file).toMatch(/^(app\/(light|db-path)\.js|pipeline\/(suggest|render)\.js|core\/[\w/-]+\.js|runner\/events\.js)$/);
  });

  it.skipIf(!existsSync(metaFile))("the bundle a start reads holds only the command line, yargs and the light modules", () => {
    const meta = JSON.parse(readFileSync(metaFile, "utf8")) as BundleMeta;
    // main.js turns on Node's compile cache, then imports the command line's chunk: both run at every start.
    const cliChunk = Object.keys(meta.outputs).find((file) => meta.outputs[file]!.inputs.includes("dist/cli/cli.js"));
    expect(cliChunk).toBeDefined();
    expect(readFileSync(main, "utf8")).toContain(`await import("./${cliChunk}")`);
    const loaded = new Set<string>();
    const visit = (file: string) => {
      if (loaded.has(file)) return;
      loaded.add(file);
      for (const next of meta.outputs[file]!.imports) visit(next);
    };
    visit(meta.entry);
    visit(cliChunk!);
    const inputs = [...loaded].flatMap((file) => meta.outputs[file]!.inputs);
    const allowed = new Set([...names(dependencyClosure("yargs")), "fastest-levenshtein"]);
    const packages = new Set(inputs.map(packageOf).filter((name): name is string => name !== undefined));
    for (const name of packages) expect(allowed, `package ${name} loads at every start`).toContain(name);
    for (const input of inputs.filter((i) => i.startsWith("dist/") && !i.startsWith("dist/cli/"))) {
      expect(input).toMatch(/^dist\/(app\/(light|db-path)\.js|pipeline\/(suggest|render)\.js|core\/[\w/-]+\.js|runner\/events\.js)$/);
    }
    // And the chunks a command loads when it runs are there: validate's, with the YAML reader in its reach.
    const validateChunk = Object.keys(meta.outputs).find((file) => meta.outputs[file]!.inputs.includes("dist/app/check/validate.js"));
    expect(validateChunk).toBeDefined();
    expect(loaded.has(validateChunk!)).toBe(false);
  });

  it.skipIf(!existsSync(main))("finds the static imports the check relies on", () => {
    // The scanner itself: a static import is found, a dynamic one and a type-only one are not.
    expect(staticImports(`import { a } from "./a.js";\nimport "./side.js";\nexport { b } from "./b.js";\nconst c = await import("./c.js");\n`)).toEqual(["./a.js", "./side.js", "./b.js"]);
  });
});

describe.skipIf(!existsSync(resolve(DIST, "cli/main.js")))("the bundled CLI", () => {
  it("reports this package's version wherever it runs, and speaks English in any locale", async () => {
    const { mkdtempSync, writeFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { runChild } = await import("./child.js");
    const dir = mkdtempSync(resolve(tmpdir(), "scrapeline-version-"));
    writeFileSync(resolve(dir, "package.json"), '{"name":"another","version":"9.9.9"}');
    const own = (JSON.parse(readFileSync("package.json", "utf8")) as { version: string }).version;
    const version = await runChild(["--version"], { cwd: dir, env: { LANG: "de_DE.UTF-8", LC_ALL: "de_DE.UTF-8" } });
    expect(version.stdout.trim()).toBe(own);
    const help = await runChild(["--help"], { cwd: dir, env: { LANG: "de_DE.UTF-8", LC_ALL: "de_DE.UTF-8" } });
    expect(help.stdout).toContain("Commands:");
    expect(help.stdout).toContain("Show version number");
  });
  it("lists no folder of the directory it is started in on its way to its own package.json", async () => {
    const { mkdtempSync, writeFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { runChild } = await import("./child.js");
    const dir = mkdtempSync(resolve(tmpdir(), "scrapeline-cwd-"));
    // Every directory the CLI lists, written down by a preload (the bundle's imports of fs see the change).
    const spy = resolve(dir, "spy.cjs");
    const listed = resolve(dir, "listed.txt");
    writeFileSync(spy, `const fs = require("node:fs");\nconst list = fs.readdirSync;\nfs.readdirSync = function (path, ...rest) { fs.appendFileSync(${JSON.stringify(listed)}, String(path) + "\\n"); return list.call(this, path, ...rest); };\nrequire("node:module").syncBuiltinESMExports();\n`);
    writeFileSync(resolve(dir, "p.yaml"), "version: 1\nname: cwd\nsteps:\n  - id: a\n    scrape: { url: https://example.com/ }\n");
    const plan = await runChild(["plan", "p.yaml"], { cwd: dir, env: { NODE_OPTIONS: `--require ${spy}` } });
    expect(plan.stderr).toBe("");
    expect(plan.code).toBe(0);
    const folders = existsSync(listed) ? readFileSync(listed, "utf8").split("\n").filter(Boolean).map((path) => resolve(dir, path)) : [];
    // It used to list the working directory and each one above it: slow in a folder of many entries.
    for (let up = dir; ; up = dirname(up)) {
      expect(folders).not.toContain(up);
      if (dirname(up) === up) break;
    }
  });
});
