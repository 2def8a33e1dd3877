import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadPipeline, renderDiagnostics } from "../../src/pipeline/index.js";
import { userSchemaAjv } from "../../src/pipeline/schema.js";
import { compileCanFail, installedVersions } from "../../src/pipeline/user-schema-check.js";

/**
 * The JSON Schemas written inside pipelines are checked against ajv's meta-schema by code the build
 * saves (dist/pipeline/user-schema-meta-validator.cjs), and compiled only when their compile could
 * fail. The built package must judge every such schema exactly as ajv at run time does (the
 * sources, as these tests run them, have no saved check and use ajv).
 */
const BUILT = new URL("../../dist/pipeline/", import.meta.url);
const SAVED = new URL("user-schema-meta-validator.cjs", BUILT);

/** Extract schemas, each wrong in its own way (or not at all). */
const SCHEMAS = {
  "type-typo": "{ type: object, properties: { a: { type: strin } } }",
  "empty-enum": "{ type: object, properties: { a: { type: string, enum: [] } } }",
  "pattern-needs-no-u-flag": '{ type: object, properties: { a: { type: string, pattern: "\\\\p{Foo" } } }',
  "unclosed-pattern": '{ type: object, properties: { a: { type: string, pattern: "[" } } }',
  "unknown-format": "{ type: object, properties: { a: { type: string, format: foo } } }",
  "nullable-without-type": "{ type: object, properties: { a: { nullable: true } } }",
  "missing-ref": '{ type: object, properties: { a: { $ref: "#/definitions/nope" } } }',
  "tuple-with-bad-minimum": "{ type: object, properties: { a: { type: string, format: email }, b: { type: array, items: [{ type: integer, minimum: x }] } } }",
  "repeated-required": "{ type: object, required: [a, a], properties: { a: { anyOf: [{ type: string }, { type: nul }] } } }",
  "property-named-format": "{ type: object, properties: { format: { type: string, format: 12 } }, additionalProperties: { not: { const: 1 } } }",
  "bad-pattern-properties": '{ type: object, patternProperties: { "(": { type: string } } }',
  valid: "{ type: object, properties: { books: { type: array, items: { type: object, properties: { name: { type: string }, price: { type: number, minimum: 0 } }, required: [name] } } } }",
};

function pipelineWith(dir: string, name: string, schema: string): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, `version: 1\nname: p\nsteps:\n  - id: a\n    extract:\n      urls: [https://example.com/]\n      schema: ${schema}\n`);
  return file;
}

type PipelineModule = typeof import("../../src/pipeline/index.js");
async function rendered(module: Pick<PipelineModule, "loadPipeline" | "renderDiagnostics">, file: string): Promise<string> {
  const result = await module.loadPipeline(file, { env: {} });
  return module.renderDiagnostics(result.diagnostics, "short", { sources: new Map([[file, readFileSync(file, "utf8")]]) });
}

describe("the saved meta-schema check of schemas written in pipelines", () => {
  it.skipIf(!existsSync(BUILT))("is built, with the ajv and ajv-formats installed", () => {
    expect(existsSync(SAVED), "dist/pipeline/user-schema-meta-validator.cjs is missing: run npm run build").toBe(true);
    const saved = createRequire(import.meta.url)(SAVED.pathname) as { ajvVersion?: string; ajvFormatsVersion?: string };
    const installed = installedVersions();
    expect({ ajv: saved.ajvVersion, ajvFormats: saved.ajvFormatsVersion }).toEqual(installed);
  });

  it.skipIf(!existsSync(SAVED))("reports every schema as ajv at run time does", async () => {
    const built = (await import(/* @vite-ignore */ new URL("index.js", BUILT).href)) as PipelineModule;
    const dir = mkdtempSync(join(tmpdir(), "scrapeline-user-schemas-"));
    for (const [name, schema] of Object.entries(SCHEMAS)) {
      const file = pipelineWith(dir, name, schema);
      const ours = await rendered(built, file);
      expect(ours, name).toBe(await rendered({ loadPipeline, renderDiagnostics }, file));
      // ajv only warns of a format it does not know.
      if (name === "valid" || name === "unknown-format") expect(ours, name).toBe("");
      else expect(ours, name).toContain("error[invalid-json-schema]");
    }
  });
});

describe("whether a schema's compile can fail once the meta-schema accepted it", () => {
  it("can for a $ref, a pattern, an unknown format, nullable, $schema and keywords it does not vouch for", () => {
    const risky: unknown[] = [
      { $ref: "#/definitions/a" },
      { type: "object", properties: { a: { type: "string", pattern: "a" } } },
      { type: "object", patternProperties: { a: {} } },
      { type: "array", items: [{ format: "no-such-format" }] },
      { anyOf: [{ type: "string" }, { nullable: true }] },
      { $schema: "http://json-schema.org/draft-07/schema#" },
      { if: { type: "string" }, then: { minLength: 1 } },
      { definitions: { a: {} } },
      { type: "object", additionalProperties: { $id: "x" } },
      "not a schema",
    ];
    for (const schema of risky) expect(compileCanFail(schema), JSON.stringify(schema)).toBe(true);
  });

  it("cannot for schemas of plain keywords, and ajv compiles each of them", () => {
    const plain: unknown[] = [
      true,
      { type: "object", properties: { format: { type: "string", format: "email" }, pattern: { enum: ["a", 1] } }, required: ["format"] },
      { type: "array", items: [{ type: "integer", minimum: 0 }, false], additionalItems: { const: null }, minItems: 1, uniqueItems: true },
      { anyOf: [{ type: ["string", "null"], maxLength: 3 }, { not: { type: "number", multipleOf: 2 } }], description: "d", default: 1, examples: [1] },
      { type: "object", additionalProperties: { type: "array", contains: { type: "string", format: "date-time" } }, maxProperties: 2 },
    ];
    const ajv = userSchemaAjv();
    for (const schema of plain) {
      expect(compileCanFail(schema), JSON.stringify(schema)).toBe(false);
      expect(ajv.validateSchema(schema as object), JSON.stringify(schema)).toBe(true);
      expect(() => ajv.compile(schema as object)).not.toThrow();
    }
  });
});
