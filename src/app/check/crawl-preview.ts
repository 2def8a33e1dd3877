import { ScrapelineError } from "../../core/index.js";
import { Extractor } from "../../engines/local/index.js";
import { ABSOLUTE_URL_HINT, DEFAULT_LLM, readCrawlPrompt, type PromptOptions } from "../../pipeline/index.js";
import { extractionSettings } from "../common/index.js";

/** The service's limit on a params-preview prompt (API-NOTES.md §3.4). */
export const MAX_PROMPT_LENGTH = 10_000;

/** What `crawl-preview` answers: the params-preview `data`, and the phrase behind each option. */
export interface CrawlPreview {
  data: { url: string } & PromptOptions;
  matched: Array<{ phrase: string; option: string }>;
  /** Who read the prompt: the configured model, or the phrase reader. */
  source?: "model" | "phrases";
}

/** Derives crawl options from a prompt for `url`, as a crawl step's `prompt` would. */
export function previewCrawlParams(url: string, prompt: string): CrawlPreview {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ScrapelineError("invalid-input", `${JSON.stringify(url)} is not a URL (${ABSOLUTE_URL_HINT})`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new ScrapelineError("invalid-input", `${url} is not an http(s) URL`);
  if (prompt.trim() === "") throw new ScrapelineError("invalid-input", "the prompt is empty");
  if (prompt.length > MAX_PROMPT_LENGTH) throw new ScrapelineError("invalid-input", `the prompt has ${prompt.length} characters; at most ${MAX_PROMPT_LENGTH} are allowed`);
  const reading = readCrawlPrompt(prompt);
  return { data: { url: parsed.href, ...reading.options }, matched: reading.matched };
}

/**
 * The preview as a crawl step would derive it on this machine: by the model when one is
 * configured in the environment (SCRAPELINE_LLM_*), else by the phrase reader.
 */
export async function previewCrawlParamsLocally(url: string, prompt: string, env: Readonly<Record<string, string | undefined>>): Promise<CrawlPreview> {
  const reading = previewCrawlParams(url, prompt);
  const settings = extractionSettings({ extractor: "auto", llm: { ...DEFAULT_LLM } }, env);
  if (!settings.llm) return { ...reading, source: "phrases" };
  const derived = (await new Extractor(settings).crawlOptionsFromPrompt(reading.data.url, prompt)) ?? {};
  return { data: { url: reading.data.url, ...(derived as PromptOptions) }, matched: [], source: "model" };
}
