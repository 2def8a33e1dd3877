import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { ErrorObject, ValidateFunction } from "ajv";
import { userSchemaAjv } from "./schema.js";

const require = createRequire(import.meta.url);

/**
 * The check of a JSON Schema written inside a pipeline against ajv's meta-schema (draft-07), as
 * ajv generates it for userSchemaAjv(), saved by the build beside the compiled module
 * (scripts/gen-validator.mjs) with the versions of ajv and ajv-formats it was made with: loading it
 * spares `validate` loading ajv's compiler and compiling the meta-schema.
 */
export const PRECOMPILED_META_VALIDATOR = "user-schema-meta-validator.cjs";

type MetaValidator = ValidateFunction & { ajvVersion?: string; ajvFormatsVersion?: string };
let meta: MetaValidator | null | undefined;

/** The saved meta-schema check, when it was made with the ajv and ajv-formats installed. */
function precompiledMeta(): MetaValidator | undefined {
  if (meta !== undefined) return meta ?? undefined;
  meta = null;
  // Named from the folder above, so the path holds here and in the CLI's bundle (dist/cli/) alike.
  const file = new URL(`../pipeline/${PRECOMPILED_META_VALIDATOR}`, import.meta.url);
  if (!existsSync(file)) return undefined;
  const saved = require(fileURLToPath(file)) as MetaValidator;
  const installed = installedVersions();
  if (saved.ajvVersion === installed.ajv && saved.ajvFormatsVersion === installed.ajvFormats) meta = saved;
  return meta ?? undefined;
}

/** The versions of ajv and ajv-formats this module loads. */
export function installedVersions(): { ajv: string; ajvFormats: string } {
  const version = (name: string) => (require(`${name}/package.json`) as { version: string }).version;
  return { ajv: version("ajv"), ajvFormats: version("ajv-formats") };
}

/** What `userSchemaAjv().validateSchema(schema)` finds wrong with the schema; undefined when nothing. */
export function metaSchemaErrors(schema: Record<string, unknown>): ErrorObject[] | undefined {
  const saved = schema.$schema === undefined ? precompiledMeta() : undefined;
  if (saved) return saved(schema) ? undefined : (saved.errors ?? []);
  const ajv = userSchemaAjv();
  return ajv.validateSchema(schema) ? undefined : (ajv.errors ?? []);
}

/**
 * Whether ajv's compile of a schema the meta-schema accepted could still fail (or warn), so it has
 * to be tried: true unless every keyword in it is one whose compile the meta-schema's check already
 * settles. A `$ref` can point at nothing, a pattern can be a regular expression only without the
 * `u` flag ajv compiles it with, an unknown format is warned about, `nullable` needs a `type`, and
 * keywords not listed here are not vouched for; such schemas are compiled as before.
 */
export function compileCanFail(schema: unknown): boolean {
  if (typeof schema === "boolean") return false;
  if (!schema || typeof schema !== "object" || Array.isArray(schema)) return true;
  for (const [key, value] of Object.entries(schema)) {
    if (ANNOTATIONS.has(key) || VALUES.has(key)) continue;
    if (key === "format") {
      if (typeof value !== "string" || !knownFormat(value)) return true;
    } else if (key === "properties") {
      if (!value || typeof value !== "object" || Object.values(value).some(compileCanFail)) return true;
    } else if (SUBSCHEMA.has(key)) {
      if (compileCanFail(value)) return true;
    } else if (key === "items") {
      if (Array.isArray(value) ? value.some(compileCanFail) : compileCanFail(value)) return true;
    } else if (SUBSCHEMAS.has(key)) {
      if (!Array.isArray(value) || value.some(compileCanFail)) return true;
    } else return true;
  }
  return false;
}

/** Keywords ajv does not compile (it reads no `default`: it fills in no defaults). */
const ANNOTATIONS = new Set(["title", "description", "default", "examples", "$comment", "readOnly", "writeOnly"]);
/** Keywords whose value the meta-schema checks in full (a number, a count, a type name, a list of names or values). */
const VALUES = new Set(["type", "required", "const", "enum", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties"]);
/** Keywords that hold one schema. */
const SUBSCHEMA = new Set(["additionalProperties", "additionalItems", "contains", "not"]);
/** Keywords that hold a list of schemas (`items` holds one or a list). */
const SUBSCHEMAS = new Set(["anyOf", "oneOf", "allOf"]);

/** Whether ajv (with ajv-formats' formats, which userSchemaAjv() adds) knows the format. */
function knownFormat(name: string): boolean {
  const { fullFormats } = require("ajv-formats/dist/formats") as { fullFormats: Record<string, unknown> };
  return Object.hasOwn(fullFormats, name);
}
