import { readdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadPipeline, renderDiagnostics } from "../../src/pipeline/index.js";

/**
 * One golden file per diagnostic kind: test/fixtures/diagnostics/<code>.yaml must produce a
 * diagnostic with that code, and its long rendering must equal <code>.err.
 * Regenerate with: UPDATE_GOLDEN=1 npx vitest run test/pipeline/golden.test.ts
 */
const DIR = "test/fixtures/diagnostics";
const ENV = { SCRAPELINE_FIXTURE_TOKEN: "fixture-token-value" };
const update = process.env.UPDATE_GOLDEN === "1";

const fixtures = readdirSync(DIR)
  .filter((f) => f.endsWith(".yaml"))
  .sort();

describe("diagnostic golden files", () => {
  it("has fixtures", () => {
    expect(fixtures.length).toBeGreaterThan(30);
  });

  it.each(fixtures)("%s", async (name) => {
    const code = name.replace(/\.yaml$/, "");
    const file = `${DIR}/${name}`;
    const result = await loadPipeline(file, { env: ENV });
    expect(result.diagnostics.map((d) => d.code)).toContain(code);
    const text = readFileSync(file, "utf8");
    const rendered = renderDiagnostics(result.diagnostics, "long", { sources: new Map([[file, text]]) });
    const golden = `${DIR}/${code}.err`;
    if (update || !existsSync(golden)) writeFileSync(golden, rendered);
    expect(rendered).toBe(readFileSync(golden, "utf8"));
  });
});
