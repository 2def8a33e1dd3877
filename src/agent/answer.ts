import { createRequire } from "node:module";
import type { Ajv } from "ajv";
import type { JsonSchema } from "../core/index.js";
import { parseJson } from "../core/index.js";

const require = createRequire(import.meta.url);
let ajv: Ajv | undefined;

/** A final answer read: its data and per-field sources, or what is wrong with it (with the path). */
export type AnswerReading = { ok: true; data: unknown; sources: Record<string, string[]> } | { ok: false; problem: string };

/**
 * The model's final answer: `{"data": …, "sources": {field: [url…]}}` (a bare object is taken as
 * the data), checked against the schema. Sources name only pages the agent read (`read`: URL →
 * the text the agent got); a top-level field the model gave no source for gets the pages whose
 * text holds its value.
 */
export function readAnswer(content: string, schema: JsonSchema | undefined, read: ReadonlyMap<string, string>): AnswerReading {
  const parsed = parseJson(content);
  if (!parsed.ok) return { ok: false, problem: "the answer is not valid JSON" };
  const value = parsed.value;
  const wrapped = typeof value === "object" && value !== null && !Array.isArray(value) && "data" in value;
  const data = wrapped ? (value as { data: unknown }).data : value;
  const violations = schema ? schemaViolations(schema, data) : [];
  if (violations.length) return { ok: false, problem: `the data does not match the schema: ${violations.join("; ")}` };
  const given = wrapped ? (value as { sources?: unknown }).sources : undefined;
  const sources = sourcesOf(given, read);
  if (typeof data === "object" && data !== null && !Array.isArray(data)) {
    for (const [field, value] of Object.entries(data)) {
      if (sources[field] || !(typeof value === "number" || (typeof value === "string" && value.trim().length >= 2))) continue;
      const holds = typeof value === "number" ? holdsNumber(value) : holdsWords(value.trim());
      const found = [...read].filter(([, text]) => holds(withoutUrls(text))).map(([url]) => url);
      if (found.length) sources[field] = found.slice(0, MAX_INFERRED);
    }
  }
  return { ok: true, data, sources };
}

/** Whether a text holds the value as whole words: "Item" is not found inside "Items". */
function holdsWords(value: string): (text: string) => boolean {
  const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, "iu");
  return (text) => pattern.test(text);
}

/** Whether a text states the number (3.5 in "3.50", "3,50"), never as part of another ("30" in "2030"). */
function holdsNumber(value: number): (text: string) => boolean {
  return (text) => {
    for (const match of text.matchAll(/(?<![\p{L}\p{N}.,])\d+(?:[.,]\d+)?(?![\p{L}\p{N}]|[.,]\d)/gu)) {
      if (Number(match[0].replace(",", ".")) === value) return true;
    }
    return false;
  };
}

/** A page's words without the addresses of its links, whose ports and paths are not what it says. */
function withoutUrls(markdown: string): string {
  return markdown.replace(/\]\([^)\s]*(\s+"[^"]*")?\)/g, "]").replace(/[a-z][a-z0-9+.-]*:\/\/\S+/gi, " ");
}

/** Pages named at most for a field whose source is inferred. */
const MAX_INFERRED = 3;

function sourcesOf(given: unknown, read: ReadonlyMap<string, string>): Record<string, string[]> {
  const sources: Record<string, string[]> = {};
  if (typeof given !== "object" || given === null || Array.isArray(given)) return sources;
  for (const [field, urls] of Object.entries(given)) {
    const list = (Array.isArray(urls) ? urls : [urls]).filter((u): u is string => typeof u === "string" && read.has(u));
    if (list.length) sources[field] = [...new Set(list)];
  }
  return sources;
}

/** Where `data` breaks `schema`, each as `path: message` (`(root)` for the top). */
export function schemaViolations(schema: JsonSchema, data: unknown): string[] {
  if (!ajv) {
    const { Ajv: AjvClass } = require("ajv") as typeof import("ajv");
    const addFormats = require("ajv-formats") as (instance: Ajv) => Ajv;
    ajv = addFormats(new AjvClass({ allErrors: true, strict: false }));
  }
  let validate;
  try {
    validate = ajv.compile(withoutAnnotations(schema));
  } catch (error) {
    return [`the schema cannot be compiled: ${(error as Error).message}`];
  }
  if (validate(data)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || "(root)"}: ${e.message ?? "is invalid"}${e.keyword === "additionalProperties" ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})` : ""}`);
}

function withoutAnnotations(node: unknown, names = false): JsonSchema {
  if (Array.isArray(node)) return node.map((n) => withoutAnnotations(n)) as unknown as JsonSchema;
  if (typeof node !== "object" || node === null) return node as JsonSchema;
  const entries = Object.entries(node).filter(([key]) => names || !key.startsWith("x-"));
  return Object.fromEntries(entries.map(([key, value]) => [key, withoutAnnotations(value, !names && (key === "properties" || key === "definitions" || key === "$defs"))]));
}

