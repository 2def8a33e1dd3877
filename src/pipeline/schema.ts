import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { Ajv, AnySchemaObject, ValidateFunction } from "ajv";

const require = createRequire(import.meta.url);
/** ajv and its formats, loaded on first use: commands that only validate pipelines load the precompiled validator instead. */
const ajvModule = () => require("ajv") as typeof import("ajv");
const addFormats = (ajv: Ajv): Ajv => (require("ajv-formats") as (instance: Ajv) => Ajv)(ajv);

/** Where the bundled JSON Schemas live: `schemas/` at the package root (two levels up from here). */
export const SCHEMAS_DIR = new URL("../../schemas/", import.meta.url);
export const PIPELINE_SCHEMA_FILE = "pipeline.schema.json";
/** Base URI under which each schema file is registered, so relative `$ref`s between files resolve. */
export const SCHEMA_BASE = "https://scrapeline.local/schemas/";

export function pipelineSchemaPath(): string {
  return fileURLToPath(new URL(PIPELINE_SCHEMA_FILE, SCHEMAS_DIR));
}

export interface BundledSchemas {
  validate: ValidateFunction;
  /** Every schema file by name, as parsed JSON. */
  files: Map<string, AnySchemaObject>;
  /** For each object that carries a `discriminator` (by its JSON text), the tag values its branches accept. */
  discriminatorTags: Map<string, string[]>;
}

/**
 * The validator the build saves beside this module (scripts/gen-validator.mjs), ajv's generated
 * code for the bundled schemas: loading it takes a few milliseconds where compiling takes a
 * hundred, on every command that reads a pipeline. It is used only when made from these very
 * schema files; otherwise (or when absent, as when running from the sources) they are compiled.
 */
export const PRECOMPILED_VALIDATOR = "pipeline-validator.cjs";

let bundled: BundledSchemas | undefined;

/** The bundled schemas and their validator, once per process. */
export function bundledSchemas(): BundledSchemas {
  if (bundled) return bundled;
  const texts = readSchemaTexts();
  const files = new Map([...texts].map(([name, text]) => [name, JSON.parse(text) as AnySchemaObject]));
  const validate = precompiled(schemasDigest(texts)) ?? compileBundledSchemas(files).validate;
  bundled = { validate, files, discriminatorTags: collectDiscriminatorTags(files) };
  return bundled;
}

/** The schema files' text by name, in name order. */
export function readSchemaTexts(): Map<string, string> {
  const names = readdirSync(SCHEMAS_DIR).filter((f) => f.endsWith(".schema.json")).sort();
  return new Map(names.map((name) => [name, readFileSync(new URL(name, SCHEMAS_DIR), "utf8")]));
}

/** Identifies a set of schema files (names and contents). */
export function schemasDigest(texts: Map<string, string>): string {
  const hash = createHash("sha256");
  for (const [name, text] of texts) hash.update(`${name}\0${text}\0`);
  return hash.digest("hex");
}

/**
 * Compiles the schema files (parsed; each gains its `$id`). With `source`, ajv keeps the code it
 * generates, for the build to save as the precompiled validator.
 */
export function compileBundledSchemas(files: Map<string, AnySchemaObject>, options: { source?: boolean } = {}): { ajv: Ajv; validate: ValidateFunction } {
  // Start-up cost matters for a CLI: the bundled schemas are checked against the meta-schema by the
  // test suite, so they are not re-checked here, and refs compile once instead of being inlined.
  const { Ajv, _ } = ajvModule();
  const ajv = new Ajv({
    validateSchema: false,
    inlineRefs: false,
    code: { optimize: false, ...(options.source ? { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` } : {}) },
    allErrors: true,
    strict: true,
    discriminator: true,
    verbose: true,
  });
  addFormats(ajv);
  for (const [name, json] of files) {
    // The files carry no $id (editors resolve their relative refs by path); giving each one its
    // own base here keeps a file's local "#/definitions/..." refs local when ajv inlines it.
    json.$id = SCHEMA_BASE + name;
    ajv.addSchema(json);
  }
  const validate = ajv.getSchema(SCHEMA_BASE + PIPELINE_SCHEMA_FILE);
  if (!validate) throw new Error(`bundled schema ${PIPELINE_SCHEMA_FILE} is missing from ${fileURLToPath(SCHEMAS_DIR)}`);
  return { ajv, validate };
}

function precompiled(digest: string): ValidateFunction | undefined {
  // Named from the folder above, so the path holds here and in the CLI's bundle (dist/cli/) alike.
  const file = new URL(`../pipeline/${PRECOMPILED_VALIDATOR}`, import.meta.url);
  if (!existsSync(file)) return undefined;
  const module = require(fileURLToPath(file)) as ValidateFunction & { schemasDigest?: string };
  return module.schemasDigest === digest ? module : undefined;
}

/**
 * How `discriminatorTags` knows a schema object: ajv reports the object itself, or (precompiled) a
 * copy of it, so by its text, leaving out the `$id` a file's root gains when it is compiled.
 */
export function discriminatorKey(schema: object): string {
  const { $id: _id, ...rest } = schema as Record<string, unknown>;
  return JSON.stringify(rest);
}

function collectDiscriminatorTags(files: Map<string, AnySchemaObject>): Map<string, string[]> {
  const tags = new Map<string, string[]>();
  for (const [name, root] of files) {
    const resolve = (schema: AnySchemaObject): AnySchemaObject => {
      const ref = schema.$ref as string | undefined;
      if (!ref) return schema;
      const [fileName, pointer = ""] = ref.split("#");
      const target = fileName ? files.get(fileName) : files.get(name);
      return pointer.split("/").filter(Boolean).reduce<AnySchemaObject>((node, key) => node?.[key] as AnySchemaObject, target ?? {});
    };
    const stack: unknown[] = [root];
    while (stack.length > 0) {
      const node = stack.pop();
      if (!node || typeof node !== "object") continue;
      const schema = node as AnySchemaObject;
      const discriminator = schema.discriminator as { propertyName?: string } | undefined;
      if (discriminator?.propertyName && Array.isArray(schema.oneOf)) {
        const values: string[] = [];
        for (const branch of schema.oneOf as AnySchemaObject[]) {
          const property = resolve(branch)?.properties?.[discriminator.propertyName] as AnySchemaObject | undefined;
          if (property?.const !== undefined) values.push(String(property.const));
          if (Array.isArray(property?.enum)) values.push(...property.enum.map(String));
        }
        tags.set(discriminatorKey(schema), values);
      }
      stack.push(...Object.values(schema));
    }
  }
  return tags;
}

/** A separate, lenient instance for the JSON Schemas users write inside pipelines. */
let userAjv: Ajv | undefined;
export function userSchemaAjv(): Ajv {
  userAjv ??= newUserSchemaAjv();
  return userAjv;
}

/** The instance userSchemaAjv() holds; with `source`, ajv keeps the code it generates (for the build to save). */
export function newUserSchemaAjv(options: { source?: boolean } = {}): Ajv {
  const { Ajv, _ } = ajvModule();
  const code = options.source ? { code: { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` } } : {};
  return addFormats(new Ajv({ allErrors: true, strict: false, validateFormats: true, ...code }));
}
