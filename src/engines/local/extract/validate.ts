import { createRequire } from "node:module";
import type { Ajv, ValidateFunction } from "ajv";
import type { JsonSchema } from "../../../core/index.js";
import { stable } from "./merge.js";

const require = createRequire(import.meta.url);
/** ajv with its formats, loaded the first time a schema is compiled (most runs extract nothing). */
function newAjv(): Ajv {
  const { Ajv } = require("ajv") as typeof import("ajv");
  const addFormats = require("ajv-formats") as (instance: Ajv) => Ajv;
  return addFormats(new Ajv({ allErrors: true, strict: false, validateFormats: true, loadSchema: undefined }));
}
let ajv: Ajv | undefined;
const compiled = new Map<string, ValidateFunction>();

function compile(schema: JsonSchema): ValidateFunction {
  const key = stable(schema);
  let validate = compiled.get(key);
  if (!validate) {
    ajv ??= newAjv();
    validate = ajv.compile(schema);
    compiled.set(key, validate);
  }
  return validate;
}

/** Problems of `data` against `schema`, as `path: message` lines (empty when it is valid). */
export function schemaViolations(schema: JsonSchema, data: unknown): string[] {
  const validate = compile(schema);
  if (validate(data)) return [];
  return (validate.errors ?? []).slice(0, 10).map((e) => {
    const at = e.instancePath ? e.instancePath.slice(1).replace(/\//g, ".") : "(root)";
    const extra = e.keyword === "additionalProperties" ? ` "${(e.params as { additionalProperty: string }).additionalProperty}"` : "";
    return `${at}: ${e.message ?? "is invalid"}${extra}`;
  });
}

/**
 * The schema with `required` removed everywhere: what one chunk of a page must satisfy, since a
 * field may be on another chunk or another page. The merged result is checked against the full schema.
 */
export function partialSchema(schema: JsonSchema): JsonSchema {
  const strip = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(strip);
    if (typeof node !== "object" || node === null) return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) if (key !== "required" && key !== "minItems") out[key] = strip(value);
    return out;
  };
  return strip(schema) as JsonSchema;
}
