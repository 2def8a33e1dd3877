import type { JsonSchema } from "./types.js";

/**
 * What an extraction is asked for: the schema to fill and/or the prompt that guides it. The same
 * spec drives the extract step, the json format and change tracking's json mode.
 */
export interface ExtractionSpec {
  schema?: JsonSchema;
  prompt?: string;
  /** Extra instructions for the model (v1 jsonOptions.systemPrompt). */
  systemPrompt?: string;
}

/** One page to extract from: its markdown (for the model) and its raw HTML (for structured data and selectors). */
export interface ExtractionPage {
  url: string;
  markdown: string;
  rawHtml?: string;
}

/** The data one page yielded, with the model tokens it took (0 without a model). */
export interface PageExtraction {
  data: unknown;
  tokensUsed: number;
  /** How the data was produced. */
  extractor: "llm" | "deterministic";
  /** Things a user should know (fields the model could not fill, conflicts between chunks). */
  warnings: string[];
}

/**
 * A finished extract as the service reports it (GET /v1/extract/{id} once completed), kept as the
 * result of an extract step.
 */
export interface ExtractResult {
  success: boolean;
  status: "completed" | "failed" | "cancelled";
  data: unknown;
  /** Top-level fields (and array items, as `field[i]`) → the URLs they came from; only with showSources. */
  sources?: Record<string, string[]>;
  /** Present only when ignoreInvalidURLs is true: the entries skipped (an empty array if none). */
  invalidURLs?: string[];
  tokensUsed: number;
  creditsUsed: number;
  error?: string;
  warning?: string;
}
