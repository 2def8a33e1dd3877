import type { AgentModel, ExtractionPage, ExtractionSpec, JsonSchema, PageExtraction } from "../../../core/index.js";
import { ScrapelineError } from "../../../core/index.js";
import { parseHtml } from "../html/parse.js";
import { deriveCrawlOptions } from "./crawl-options.js";
import { fillSchema } from "./fill.js";
import { LlmClient, type LlmConfig } from "./llm-client.js";
import type { ModelSend } from "../taps.js";
import { ToolCallingModel } from "./llm-tools.js";
import { extractWithLlm, summarizeWithLlm } from "./llm-extract.js";
import { mergeParts, type Part } from "./merge.js";
import { readStructuredData } from "./structured-data.js";
import { schemaViolations } from "./validate.js";

export type { LlmConfig } from "./llm-client.js";
export { parseJson } from "../../../core/index.js";
export { mergeParts, stable } from "./merge.js";

/** Which extractor runs: the model when one is configured (auto), always the model, or never. */
export type ExtractorMode = "auto" | "llm" | "deterministic";

export interface ExtractionSettings {
  mode: ExtractorMode;
  llm?: LlmConfig;
  /** How a model is configured where this engine runs, for errors that say how (default LLM_HOWTO, a pipeline's). */
  howTo?: string;
  /** Takes over the model's requests (a recording or a replay). */
  modelTap?: (send: ModelSend) => ModelSend;
}

/** What is needed to configure a model for a pipeline, for errors that say how. */
export const LLM_HOWTO = "set SCRAPELINE_LLM_BASE_URL and SCRAPELINE_LLM_MODEL (and SCRAPELINE_LLM_API_KEY if the endpoint needs one), or name your own variables in the pipeline's llm: block";

/** The same for `scrapeline serve`, whose model is its own environment's (there is no pipeline). */
export const SERVE_LLM_HOWTO = "start scrapeline serve with SCRAPELINE_LLM_BASE_URL and SCRAPELINE_LLM_MODEL set (and SCRAPELINE_LLM_API_KEY if the endpoint needs one)";

/** The combined result of an extraction over several pages. */
export interface CombinedExtraction {
  data: unknown;
  sources: Record<string, string[]>;
  warnings: string[];
  /** Where the data breaks the schema, when it does. */
  violations: string[];
}

/**
 * Extraction on the local engine: with an OpenAI-compatible model, or deterministically from
 * structured data and annotated selectors (no model, no tokens, the same output for the same page).
 */
export class Extractor {
  private readonly client: LlmClient | undefined;

  /** How to configure a model, as errors say it. */
  private readonly howTo: string;

  constructor(private readonly settings: ExtractionSettings) {
    this.howTo = settings.howTo ?? LLM_HOWTO;
    this.client = settings.llm ? new LlmClient(settings.llm, undefined, settings.modelTap) : undefined;
  }

  /** Whether the model does the work for this spec. */
  usesLlm(): boolean {
    if (this.settings.mode === "deterministic") return false;
    if (this.client) return true;
    if (this.settings.mode === "llm") throw new ScrapelineError("invalid-input", `extractor: llm is set but no LLM is configured: ${this.howTo}`);
    return false;
  }

  async extractPage(page: ExtractionPage, spec: ExtractionSpec, signal?: AbortSignal): Promise<PageExtraction> {
    if (this.usesLlm()) {
      const result = await extractWithLlm(this.client!, this.settings.llm!, page, spec, signal);
      return { data: result.data, tokensUsed: result.tokens, extractor: "llm", warnings: result.warnings };
    }
    if (!spec.schema) {
      throw new ScrapelineError(
        "invalid-input",
        `a prompt-only extraction needs an LLM, and none is configured. Either ${this.howTo}; or give a JSON Schema, which is filled without a model from the page's JSON-LD, microdata and OpenGraph and from x-selector annotations`,
        { url: page.url },
      );
    }
    if (page.rawHtml === undefined) throw new ScrapelineError("unsupported", `${page.url} has no HTML to read (a PDF or JSON document): deterministic extraction reads HTML; for other documents ${this.howTo}`, { url: page.url });
    const { root, info } = parseHtml(page.rawHtml, { allAttributes: true });
    const data = readStructuredData(page.rawHtml, root, info, page.url);
    const filled = fillSchema(spec.schema, { data, root, url: page.url });
    return { data: filled, tokensUsed: 0, extractor: "deterministic", warnings: data.problems.map((p) => `${page.url}: ${p}`) };
  }

  async summarize(page: ExtractionPage, signal?: AbortSignal): Promise<{ summary: string; tokensUsed: number }> {
    if (!this.client || this.settings.mode === "deterministic") {
      throw new ScrapelineError("unsupported", `the summary format needs an LLM: ${this.howTo}`, { url: page.url });
    }
    const result = await summarizeWithLlm(this.client, this.settings.llm!, page, signal);
    return { summary: result.summary, tokensUsed: result.tokens };
  }

  /** Crawl options a model derives from a crawl's prompt; undefined when no model is configured (the phrase reader applies). */
  async crawlOptionsFromPrompt(url: string, prompt: string, signal?: AbortSignal): Promise<Record<string, unknown> | undefined> {
    if (!this.client || this.settings.mode === "deterministic") return undefined;
    try {
      return (await deriveCrawlOptions(this.client, url, prompt, signal)).options;
    } catch (error) {
      if (error instanceof ScrapelineError) throw error;
      throw new ScrapelineError("bad-content", (error as Error).message);
    }
  }

  /**
   * Deterministic extraction first (structured data, selectors: no tokens); the model only when
   * that leaves the schema unmet or no schema is given. Without a model, the deterministic answer stands.
   */
  async extractDeterministicFirst(page: ExtractionPage, spec: ExtractionSpec, signal?: AbortSignal): Promise<PageExtraction> {
    if (spec.schema && page.rawHtml !== undefined) {
      const { root, info } = parseHtml(page.rawHtml, { allAttributes: true });
      const data = readStructuredData(page.rawHtml, root, info, page.url);
      const filled = fillSchema(spec.schema, { data, root, url: page.url });
      const empty = filled === null || filled === undefined || (typeof filled === "object" && Object.keys(filled as object).length === 0);
      if ((!empty && schemaViolations(spec.schema, filled).length === 0) || !this.client || this.settings.mode === "deterministic") {
        return { data: filled, tokensUsed: 0, extractor: "deterministic", warnings: data.problems.map((p) => `${page.url}: ${p}`) };
      }
    }
    if (!this.client || this.settings.mode === "deterministic") return this.extractPage(page, spec, signal);
    const result = await extractWithLlm(this.client, this.settings.llm!, page, spec, signal);
    return { data: result.data, tokensUsed: result.tokens, extractor: "llm", warnings: result.warnings };
  }

  /** The agent's model (tool calling, JSON for servers without tools); an agent needs one. */
  agentModel(): AgentModel {
    if (this.settings.mode === "deterministic") throw new ScrapelineError("unsupported", "an agent step needs an LLM, and this pipeline sets extractor: deterministic, which never calls one: remove it (or set auto) to run agents");
    if (!this.client) throw new ScrapelineError("unsupported", `an agent step needs an LLM: ${this.howTo}`);
    return new ToolCallingModel(this.client, this.settings.llm!);
  }

  /** Per-page results merged in the order given, checked against the schema. */
  combine(parts: readonly Part[], schema: JsonSchema | undefined): CombinedExtraction {
    const merged = mergeParts(parts);
    const violations = schema ? schemaViolations(schema, merged.data) : [];
    return { data: merged.data, sources: merged.sources, warnings: merged.conflicts.map((c) => `pages disagree: ${c}`), violations };
  }
}
