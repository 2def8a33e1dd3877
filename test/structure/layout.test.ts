import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = "src";
/** Files written by a generator (scripts/gen-types.mjs), not by hand. */
const GENERATED = /^src\/core\/generated\//;
const MAX_FILES_PER_FOLDER = 25;
const MAX_LINES = 400;

/** Every folder under src/ with the TypeScript files it holds directly. */
function folders(dir = SRC, out = new Map<string, string[]>()): Map<string, string[]> {
  const entries = readdirSync(dir, { withFileTypes: true });
  out.set(dir, entries.filter((e) => e.isFile() && e.name.endsWith(".ts")).map((e) => join(dir, e.name)));
  for (const entry of entries) if (entry.isDirectory()) folders(join(dir, entry.name), out);
  return out;
}

describe("the source tree's layout", () => {
  const tree = folders();

  it(`no folder under src/ holds more than ${MAX_FILES_PER_FOLDER} source files directly`, () => {
    const crowded = [...tree].filter(([, files]) => files.length > MAX_FILES_PER_FOLDER).map(([dir, files]) => `${dir}: ${files.length}`);
    expect(crowded).toEqual([]);
    // The walk saw the tree (a wrong root would pass the check above with nothing in it).
    expect(tree.get("src/app")?.length).toBeGreaterThan(0);
  });

  it(`no hand-written source file is over ${MAX_LINES} lines`, () => {
    const long = [...tree.values()]
      .flat()
      .filter((file) => !GENERATED.test(file))
      .map((file) => ({ file, lines: readFileSync(file, "utf8").split("\n").length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${relative(".", file)}: ${lines}`);
    expect(long).toEqual([]);
  });

  it("every room of app, runner, pipeline and store has an index.ts, and dependency-cruiser finds no violation", () => {
    for (const module of ["app", "runner", "pipeline", "store"]) {
      for (const entry of readdirSync(join(SRC, module), { withFileTypes: true })) {
        if (entry.isDirectory()) expect(tree.get(join(SRC, module, entry.name)), `${module}/${entry.name}`).toContain(join(SRC, module, entry.name, "index.ts"));
      }
    }
    const cruise = spawnSync(process.execPath, ["node_modules/dependency-cruiser/bin/dependency-cruise.mjs", "src", "--config", ".dependency-cruiser.cjs", "--output-type", "err"], { encoding: "utf8" });
    expect(cruise.stdout + cruise.stderr).not.toMatch(/error /);
    expect(cruise.status).toBe(0);
  });
});
