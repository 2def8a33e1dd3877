import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, extname, join } from "node:path";
import { createTwoFilesPatch } from "diff";
import { isScrapelineError } from "../../core/index.js";
import { renderDiagnostics } from "../../pipeline/index.js";
import { askedUnrecorded, recipeFailures } from "./failures.js";
import { runSnapshot } from "./snapshot.js";
import { exitCodeOf, runPipelineFile } from "../run/index.js";

/** Where a pipeline's fixture and snapshot live: `pipelines/NAME.yaml` ↔ `pipelines/__fixtures__/NAME/` and `NAME.snap.json`. */
export const FIXTURES_DIR = "__fixtures__";

export interface RecipeTest {
  name: string;
  file: string;
  fixture: string;
  snapshot: string;
  /** passed; failed; updated (--update wrote a new or changed snapshot). */
  outcome: "passed" | "failed" | "updated";
  /** Why it failed: the run's failures, its status, a missing snapshot. */
  problems: string[];
  /** The snapshot's difference, as a unified diff (committed → replayed). */
  diff?: string;
}

/** The pipelines of `dirs` that have a fixture, in name order. */
export function recipesWithFixtures(dirs: readonly string[]): Array<{ name: string; file: string; fixture: string; snapshot: string }> {
  const found = [];
  for (const dir of dirs) {
    const files = readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort();
    for (const file of files) {
      const name = basename(file, extname(file));
      const fixture = join(dir, FIXTURES_DIR, name);
      if (!existsSync(join(fixture, "index.json"))) continue;
      found.push({ name, file: join(dir, file), fixture, snapshot: join(dir, FIXTURES_DIR, `${name}.snap.json`) });
    }
  }
  return found;
}

/**
 * Replays each pipeline with a fixture into a temporary database and compares what it extracted
 * with its committed snapshot. A run whose exit code is not 0 fails its test (pages that were not
 * recorded, a failed step, expectations the run judged unmet).
 */
export async function testRecipes(dirs: readonly string[], options: { update: boolean; env?: Readonly<Record<string, string | undefined>> }): Promise<RecipeTest[]> {
  const tests: RecipeTest[] = [];
  for (const recipe of recipesWithFixtures(dirs)) tests.push(await testRecipe(recipe, options));
  return tests;
}

async function testRecipe(recipe: { name: string; file: string; fixture: string; snapshot: string }, options: { update: boolean; env?: Readonly<Record<string, string | undefined>> }): Promise<RecipeTest> {
  const base = { ...recipe, problems: [] as string[] };
  const scratch = mkdtempSync(join(tmpdir(), "scrapeline-test-"));
  try {
    const db = join(scratch, "replay.db");
    let result;
    try {
      result = await runPipelineFile(recipe.file, { db, replay: recipe.fixture, ...(options.env ? { env: options.env } : {}) });
    } catch (error) {
      if (!isScrapelineError(error)) throw error;
      return { ...base, outcome: "failed", problems: [error.message] };
    }
    if (!result.ok) return { ...base, outcome: "failed", problems: [renderDiagnostics(result.diagnostics, "short").trimEnd()] };
    const code = exitCodeOf(result.status);
    if (code !== 0) return { ...base, outcome: "failed", problems: [`the replayed run ended ${result.status} (exit code ${code})`, ...recipeFailures(db, result.runId)] };
    if (askedUnrecorded(db, result.runId)) return { ...base, outcome: "failed", problems: ["the replay asked for what the fixture does not hold (record it again with scrapeline run FILE --record DIR)", ...recipeFailures(db, result.runId)] };
    const replayed = runSnapshot(db, result.runId);
    const committed = existsSync(recipe.snapshot) ? readFileSync(recipe.snapshot, "utf8") : undefined;
    if (committed === replayed) return { ...base, outcome: "passed" };
    if (options.update) {
      writeFileSync(recipe.snapshot, replayed);
      return { ...base, outcome: "updated" };
    }
    if (committed === undefined) return { ...base, outcome: "failed", problems: [`no snapshot at ${recipe.snapshot}: write it with scrapeline test --update`] };
    const diff = createTwoFilesPatch(recipe.snapshot, "replayed", committed, replayed, undefined, undefined, { context: 3 });
    return { ...base, outcome: "failed", problems: [`what the replay extracted differs from ${recipe.snapshot} (scrapeline test --update accepts it)`], diff };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
