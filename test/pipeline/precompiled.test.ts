import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadPipeline, renderDiagnostics } from "../../src/pipeline/index.js";
import { readSchemaTexts, schemasDigest } from "../../src/pipeline/schema.js";

/**
 * The build saves ajv's generated validator (dist/pipeline/pipeline-validator.cjs); the built
 * package loads it instead of compiling the schemas. It must judge every pipeline exactly as the
 * schemas compiled at run time do (the sources, as these tests run them).
 */
const BUILT = new URL("../../dist/pipeline/", import.meta.url);
const DIR = "test/fixtures/diagnostics";
const ENV = { SCRAPELINE_FIXTURE_TOKEN: "fixture-token-value" };

type PipelineModule = typeof import("../../src/pipeline/index.js");
type SchemaModule = typeof import("../../src/pipeline/schema.js");
const built = async () => ({
  pipeline: (await import(/* @vite-ignore */ new URL("index.js", BUILT).href)) as PipelineModule,
  schema: (await import(/* @vite-ignore */ new URL("schema.js", BUILT).href)) as SchemaModule,
});

async function rendered(module: Pick<PipelineModule, "loadPipeline" | "renderDiagnostics">, file: string): Promise<string> {
  const result = await module.loadPipeline(file, { env: ENV });
  return module.renderDiagnostics(result.diagnostics, "long", { sources: new Map([[file, readFileSync(file, "utf8")]]) });
}

describe("the precompiled pipeline validator", () => {
  it("is built from the current schema files and is what the built package uses", async () => {
    expect(existsSync(new URL("pipeline-validator.cjs", BUILT)), "dist/pipeline/pipeline-validator.cjs is missing: run npm run build").toBe(true);
    const { schema } = await built();
    const { validate } = schema.bundledSchemas() as { validate: { schemasDigest?: string } };
    expect(validate.schemasDigest, "the built validator is older than schemas/: run npm run build").toBe(schemasDigest(readSchemaTexts()));
  });

  it("reports every diagnostic fixture as the schemas compiled at run time do", async () => {
    const { pipeline } = await built();
    const fixtures = readdirSync(DIR).filter((f) => f.endsWith(".yaml")).sort();
    expect(fixtures.length).toBeGreaterThan(30);
    for (const name of fixtures) {
      const file = `${DIR}/${name}`;
      expect(await rendered(pipeline, file), name).toBe(await rendered({ loadPipeline, renderDiagnostics }, file));
    }
  });

  it("names the accepted types of an unknown or missing action or format type", async () => {
    const { pipeline } = await built();
    const dir = mkdtempSync(join(tmpdir(), "scrapeline-precompiled-"));
    const cases = {
      "unknown-action.yaml": "actions: [{ type: clik, selector: a }]",
      "missing-action-type.yaml": "actions: [{ selector: a }]",
      "unknown-format.yaml": "formats: [{ type: screenshoot }]",
    };
    for (const [name, options] of Object.entries(cases)) {
      const file = join(dir, name);
      writeFileSync(file, `version: 1\nname: p\nsteps:\n  - id: a\n    scrape: { url: "https://example.com/", ${options} }\n`);
      const ours = await rendered(pipeline, file);
      expect(ours, name).toBe(await rendered({ loadPipeline, renderDiagnostics }, file));
      expect(ours, name).toMatch(/click|screenshot/);
    }
  });
});
