import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Ajv, type AnySchemaObject, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";

// ajv-formats is CommonJS; its default export arrives wrapped under NodeNext resolution.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** Where the bundled JSON Schemas live: `schemas/` at the package root (two levels up from here). */
export const SCHEMAS_DIR = new URL("../../schemas/", import.meta.url);
export const PIPELINE_SCHEMA_FILE = "pipeline.schema.json";
/** Base URI under which each schema file is registered, so relative `$ref`s between files resolve. */
export const SCHEMA_BASE = "https://scrapeline.local/schemas/";

export function pipelineSchemaPath(): string {
  return fileURLToPath(new URL(PIPELINE_SCHEMA_FILE, SCHEMAS_DIR));
}

export interface BundledSchemas {
  ajv: Ajv;
  validate: ValidateFunction;
  /** Every schema file by name, as parsed JSON (the same objects ajv reports as parentSchema). */
  files: Map<string, AnySchemaObject>;
  /** For each object that carries a `discriminator`, the tag values its branches accept. */
  discriminatorTags: WeakMap<object, string[]>;
}

let bundled: BundledSchemas | undefined;

/** Compiles the bundled schemas once per process. */
export function bundledSchemas(): BundledSchemas {
  if (bundled) return bundled;
  // Start-up cost matters for a CLI: the bundled schemas are checked against the meta-schema by the
  // test suite, so they are not re-checked here, and refs compile once instead of being inlined.
  const ajv = new Ajv({ validateSchema: false, inlineRefs: false, code: { optimize: false }, allErrors: true, strict: true, discriminator: true, verbose: true });
  addFormats(ajv);
  const files = new Map<string, AnySchemaObject>();
  for (const name of readdirSync(SCHEMAS_DIR).filter((f) => f.endsWith(".schema.json")).sort()) {
    const json = JSON.parse(readFileSync(new URL(name, SCHEMAS_DIR), "utf8")) as AnySchemaObject;
    // The files carry no $id (editors resolve their relative refs by path); giving each one its
    // own base here keeps a file's local "#/definitions/..." refs local when ajv inlines it.
    json.$id = SCHEMA_BASE + name;
    files.set(name, json);
    ajv.addSchema(json);
  }
  const validate = ajv.getSchema(SCHEMA_BASE + PIPELINE_SCHEMA_FILE);
  if (!validate) throw new Error(`bundled schema ${PIPELINE_SCHEMA_FILE} is missing from ${fileURLToPath(SCHEMAS_DIR)}`);
  bundled = { ajv, validate, files, discriminatorTags: collectDiscriminatorTags(files) };
  return bundled;
}

function collectDiscriminatorTags(files: Map<string, AnySchemaObject>): WeakMap<object, string[]> {
  const tags = new WeakMap<object, string[]>();
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
        tags.set(schema, values);
      }
      stack.push(...Object.values(schema));
    }
  }
  return tags;
}

/** A separate, lenient instance for the JSON Schemas users write inside pipelines. */
let userAjv: Ajv | undefined;
export function userSchemaAjv(): Ajv {
  if (!userAjv) {
    userAjv = new Ajv({ allErrors: true, strict: false, validateFormats: true });
    addFormats(userAjv);
  }
  return userAjv;
}
