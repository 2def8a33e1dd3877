import type { Pipeline } from "../../core/index.js";
import { ScrapelineError } from "../../core/index.js";
import type { ExtractionSettings } from "../../engines/local/index.js";

/**
 * How the local engine extracts, from the pipeline's `extractor` and `llm` settings and the
 * environment variables they name. A model is configured by its base URL and name; the key is
 * optional (local model servers need none) and stays in memory only.
 */
export function extractionSettings(pipeline: Pick<Pipeline, "extractor" | "llm">, env: Readonly<Record<string, string | undefined>>): ExtractionSettings {
  const mode = pipeline.extractor;
  const { baseUrlEnv, modelEnv, apiKeyEnv } = pipeline.llm;
  const baseUrl = env[baseUrlEnv]?.trim();
  if (mode === "deterministic") return { mode };
  if (!baseUrl) {
    if (mode === "llm") throw new ScrapelineError("invalid-input", `extractor: llm needs a model, but ${baseUrlEnv} is not set: set it to an OpenAI-compatible endpoint (e.g. http://127.0.0.1:11434/v1) and ${modelEnv} to the model's name`);
    return { mode };
  }
  let parsed: URL;
  try {
    parsed = new URL(baseUrl);
  } catch {
    throw new ScrapelineError("invalid-input", `${baseUrlEnv} is not a URL: it should look like https://api.example.com/v1`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new ScrapelineError("invalid-input", `${baseUrlEnv} must be an http(s) URL`);
  const model = env[modelEnv]?.trim();
  if (!model) throw new ScrapelineError("invalid-input", `${baseUrlEnv} is set but ${modelEnv} is not: name the model to use`);
  const apiKey = env[apiKeyEnv]?.trim();
  return {
    mode,
    llm: { baseUrl, model, ...(apiKey ? { apiKey } : {}), contextTokens: pipeline.llm.contextTokens, timeoutMs: pipeline.llm.timeoutMs },
  };
}
