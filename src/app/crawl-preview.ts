import { ScrapelineError } from "../core/index.js";
import { readCrawlPrompt, type PromptOptions } from "../pipeline/index.js";

/** The service's limit on a params-preview prompt (API-NOTES.md §3.4). */
export const MAX_PROMPT_LENGTH = 10_000;

/** What `crawl-preview` answers: the params-preview `data`, and the phrase behind each option. */
export interface CrawlPreview {
  data: { url: string } & PromptOptions;
  matched: Array<{ phrase: string; option: string }>;
}

/** Derives crawl options from a prompt for `url`, as a crawl step's `prompt` would. */
export function previewCrawlParams(url: string, prompt: string): CrawlPreview {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ScrapelineError("invalid-input", `${JSON.stringify(url)} is not a URL`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new ScrapelineError("invalid-input", `${url} is not an http(s) URL`);
  if (prompt.trim() === "") throw new ScrapelineError("invalid-input", "the prompt is empty");
  if (prompt.length > MAX_PROMPT_LENGTH) throw new ScrapelineError("invalid-input", `the prompt has ${prompt.length} characters; at most ${MAX_PROMPT_LENGTH} are allowed`);
  const reading = readCrawlPrompt(prompt);
  return { data: { url: parsed.href, ...reading.options }, matched: reading.matched };
}
