import type { JsonSchema } from "../../../core/index.js";

/** The first type a schema names (`type: [string, "null"]` → string). */
export function schemaType(schema: JsonSchema): string | undefined {
  const type = schema["type"];
  if (typeof type === "string") return type;
  if (Array.isArray(type)) return type.find((t) => t !== "null") as string | undefined;
  if (schema["properties"]) return "object";
  if (schema["items"]) return "array";
  return undefined;
}

const SCHEMA_ORG = /^https?:\/\/schema\.org\//i;

/**
 * A scalar found on a page, turned into the type the schema asks for: "$1,299.00" → 1299 for a
 * number, "InStock" → true for a boolean, schema.org enumeration URLs shortened for strings.
 * Undefined when the value cannot be read as that type (the field is then left out).
 */
export function coerceScalar(value: unknown, schema: JsonSchema): unknown {
  if (value === undefined || value === null) return undefined;
  const type = schemaType(schema);
  let out: unknown;
  switch (type) {
    case "number":
    case "integer":
      out = toNumber(value, type === "integer");
      break;
    case "boolean":
      out = toBoolean(value);
      break;
    case "string":
      out = typeof value === "string" ? value.replace(SCHEMA_ORG, "").replace(/\s+/g, " ").trim() : typeof value === "number" || typeof value === "boolean" ? String(value) : undefined;
      if (out === "") out = undefined;
      break;
    default:
      out = value;
  }
  return matchEnum(out, schema);
}

function toNumber(value: unknown, integer: boolean): number | undefined {
  let n: number | undefined;
  if (typeof value === "number") n = value;
  else if (typeof value === "string") {
    const match = /-?\d[\d\s.,']*/.exec(value.replace(/\u00a0/g, " "));
    if (match) n = parseLocaleNumber(match[0].replace(/[\s']/g, ""));
  }
  if (n === undefined || !Number.isFinite(n)) return undefined;
  return integer ? Math.round(n) : n;
}

/** "1,299.50" and "1.299,50" both → 1299.5; a lone separator followed by three digits groups thousands. */
function parseLocaleNumber(text: string): number | undefined {
  const trimmed = text.replace(/[.,]+$/, "");
  const lastDot = trimmed.lastIndexOf(".");
  const lastComma = trimmed.lastIndexOf(",");
  let normalized: string;
  if (lastDot >= 0 && lastComma >= 0) {
    const decimal = lastDot > lastComma ? "." : ",";
    const group = decimal === "." ? "," : ".";
    normalized = trimmed.split(group).join("").replace(decimal, ".");
  } else if (lastComma >= 0 || lastDot >= 0) {
    const sep = lastComma >= 0 ? "," : ".";
    const parts = trimmed.split(sep);
    const grouped = parts.length > 2 || parts[parts.length - 1]!.length === 3;
    normalized = grouped && !(sep === "." && parts.length === 2 && parts[0] === "0") ? parts.join("") : parts.join(".");
  } else normalized = trimmed;
  const n = Number(normalized);
  return Number.isFinite(n) ? n : undefined;
}

const TRUE = new Set(["true", "yes", "y", "1", "on", "instock", "in stock", "available", "onlineonly", "limitedavailability"]);
const FALSE = new Set(["false", "no", "n", "0", "off", "outofstock", "out of stock", "soldout", "sold out", "discontinued", "unavailable"]);

function toBoolean(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value !== 0;
  if (typeof value !== "string") return undefined;
  const word = value.replace(SCHEMA_ORG, "").trim().toLowerCase();
  if (TRUE.has(word)) return true;
  if (FALSE.has(word)) return false;
  return undefined;
}

function matchEnum(value: unknown, schema: JsonSchema): unknown {
  const allowed = schema["enum"];
  if (!Array.isArray(allowed) || value === undefined) return value;
  if (allowed.includes(value)) return value;
  if (typeof value === "string") return allowed.find((a) => typeof a === "string" && a.toLowerCase() === value.toLowerCase());
  return undefined;
}
