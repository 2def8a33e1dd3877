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

describe("start-up of the CLI", () => {
  const main = resolve(DIST, "cli/main.js");

  it.skipIf(!existsSync(main))("loads only the command line's own modules and yargs before a command runs", () => {
    // main.js turns on Node's compile cache, then imports cli.js: both run at every start.
    expect(readFileSync(main, "utf8")).toContain('await import("./cli.js")');
    const { files, packages } = staticGraph(main, resolve(DIST, "cli/cli.js"));
    expect([...packages].sort()).toEqual(["fastest-levenshtein", "yargs"]);
    const outside = [...files].map((f) => f.slice(DIST.length + 1)).filter((f) => !f.startsWith("cli/"));
    // The light part of app and the few pure pieces it names: no store, runner, engines or server.
    for (const file of outside) expect(file).toMatch(/^(app\/(light|db-path)\.js|pipeline\/(suggest|render)\.js|core\/[\w/-]+\.js|runner\/events\.js)$/);
  });

  it.skipIf(!existsSync(main))("finds the static imports the check relies on", () => {
    // The scanner itself: a static import is found, a dynamic one and a type-only one are not.
    expect(staticImports(`import { a } from "./a.js";\nimport "./side.js";\nexport { b } from "./b.js";\nconst c = await import("./c.js");\n`)).toEqual(["./a.js", "./side.js", "./b.js"]);
  });
});
