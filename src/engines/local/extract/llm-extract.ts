import type { ExtractionPage, ExtractionSpec, JsonSchema } from "../../../core/index.js";
import { parseJson, ScrapelineError } from "../../../core/index.js";
import { CHARS_PER_TOKEN, chunkText } from "./chunk.js";
import type { ChatMessage, LlmClient, LlmConfig } from "./llm-client.js";
import { mergeParts } from "./merge.js";
import { partialSchema, schemaViolations } from "./validate.js";

const SYSTEM = [
  "You extract structured data from web pages given as markdown.",
  "Answer with one JSON value only, no prose and no code fences.",
  "Use only facts stated in the page; leave out fields the page does not state rather than guessing.",
].join(" ");

/** Tokens kept free for instructions, the schema and the answer. */
const RESERVED_TOKENS = 4000;
const OVERLAP_TOKENS = 200;

/** Extracts one page with the model: chunked to its context, each answer checked, chunk results merged in order. */
export async function extractWithLlm(client: LlmClient, config: LlmConfig, page: ExtractionPage, given: ExtractionSpec, signal?: AbortSignal): Promise<{ data: unknown; tokens: number; warnings: string[] }> {
  // The deterministic extractor's annotations (x-selector, …) mean nothing to a model and some servers refuse unknown keywords.
  const spec = given.schema ? { ...given, schema: withoutAnnotations(given.schema) } : given;
  const context = config.contextTokens ?? 32_000;
  const schemaTokens = spec.schema ? Math.ceil(JSON.stringify(spec.schema).length / CHARS_PER_TOKEN) : 0;
  const room = Math.max(1000, context - RESERVED_TOKENS - schemaTokens) * CHARS_PER_TOKEN;
  const chunks = chunkText(page.markdown, room, OVERLAP_TOKENS * CHARS_PER_TOKEN);
  const partial = spec.schema ? partialSchema(spec.schema) : undefined;
  let tokens = 0;
  const parts: Array<{ url: string; data: unknown }> = [];
  for (const [index, chunk] of chunks.entries()) {
    const messages = buildMessages(page.url, chunk, spec, chunks.length > 1 ? { index, count: chunks.length } : undefined);
    const answer = await askValid(client, config, messages, spec.schema, partial, signal);
    tokens += answer.tokens;
    parts.push({ url: page.url, data: answer.data });
  }
  const merged = mergeParts(parts);
  return { data: merged.data, tokens, warnings: merged.conflicts.map((c) => `chunks of ${page.url} disagree: ${c}`) };
}

/** Asks until the answer is JSON that fits the (partial) schema, at most `attempts` times; tokens of every try count. */
async function askValid(client: LlmClient, config: LlmConfig, messages: ChatMessage[], schema: JsonSchema | undefined, partial: JsonSchema | undefined, signal?: AbortSignal): Promise<{ data: unknown; tokens: number }> {
  const attempts = config.attempts ?? 3;
  let tokens = 0;
  let problem = "";
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const completion = await client.complete(attempt === 1 ? messages : [...messages, { role: "user", content: `Your previous answer was rejected: ${problem}. Answer again with JSON only.` }], schema, signal);
    tokens += completion.tokens;
    const parsed = parseJson(completion.content);
    if (!parsed.ok) {
      problem = "it was not valid JSON";
      continue;
    }
    const violations = partial ? schemaViolations(partial, parsed.value) : [];
    if (violations.length === 0) return { data: parsed.value, tokens };
    problem = `it does not match the schema (${violations.join("; ")})`;
  }
  throw new ScrapelineError("bad-content", `the model's answer was rejected ${attempts} times: ${problem}`);
}

function buildMessages(url: string, markdown: string, spec: ExtractionSpec, chunk?: { index: number; count: number }): ChatMessage[] {
  const system = spec.systemPrompt ? `${SYSTEM}\n${spec.systemPrompt}` : SYSTEM;
  const lines: string[] = [];
  if (spec.prompt) lines.push(`Task: ${spec.prompt}`);
  if (spec.schema) lines.push(`The answer must be valid against this JSON Schema:\n${JSON.stringify(spec.schema)}`);
  else lines.push("Answer with a JSON object whose fields hold what the task asks for.");
  lines.push(chunk ? `Page ${url} (part ${chunk.index + 1} of ${chunk.count}):` : `Page ${url}:`);
  lines.push(markdown);
  return [
    { role: "system", content: system },
    { role: "user", content: lines.join("\n\n") },
  ];
}

/** A schema without the `x-…` keys of the deterministic extractor. */
export function withoutAnnotations(schema: JsonSchema): JsonSchema {
  const strip = (node: unknown, names = false): unknown => {
    if (Array.isArray(node)) return node.map((n) => strip(n));
    if (typeof node !== "object" || node === null) return node;
    // Under `properties` the keys are field names (a field may be called x-rate); elsewhere x-… keys are annotations.
    const entries = Object.entries(node).filter(([key]) => names || !key.startsWith("x-"));
    return Object.fromEntries(entries.map(([key, value]) => [key, strip(value, !names && (key === "properties" || key === "patternProperties" || key === "definitions" || key === "$defs"))]));
  };
  return strip(schema) as JsonSchema;
}


/** A short summary of a page in plain prose. */
export async function summarizeWithLlm(client: LlmClient, config: LlmConfig, page: ExtractionPage, signal?: AbortSignal): Promise<{ summary: string; tokens: number }> {
  const room = Math.max(1000, (config.contextTokens ?? 32_000) - RESERVED_TOKENS) * CHARS_PER_TOKEN;
  const text = page.markdown.length > room ? page.markdown.slice(0, room) : page.markdown;
  const completion = await client.completeText(
    [
      { role: "system", content: "You summarize web pages in a short paragraph of plain prose, stating only what the page says." },
      { role: "user", content: `Summarize this page (${page.url}):\n\n${text}` },
    ],
    signal,
  );
  return { summary: completion.content.trim(), tokens: completion.tokens };
}
