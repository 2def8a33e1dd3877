import type { Pipeline } from "../../core/index.js";
import { Extractor, type ExtractionSettings } from "../../engines/local/index.js";
import { DEFAULT_CRAWL } from "../../pipeline/index.js";

/**
 * With a model configured, a crawl step's prompt is read by the model instead of the phrase
 * reader: the phrase reader's options are taken back and the model's applied, except options
 * written in the file, which win. `fromPrompt` then lists what the model set.
 */
export async function applyModelCrawlPrompts(pipeline: Pipeline, settings: ExtractionSettings, signal?: AbortSignal): Promise<void> {
  if (!settings.llm || settings.mode === "deterministic") return;
  const crawls = pipeline.steps.filter((s): s is Extract<Pipeline["steps"][number], { kind: "crawl" }> => s.kind === "crawl" && typeof s.body.prompt === "string");
  if (crawls.length === 0) return;
  const extractor = new Extractor(settings);
  for (const step of crawls) {
    const derived = await extractor.crawlOptionsFromPrompt(step.body.url, step.body.prompt!, signal);
    if (!derived) continue;
    const body = step.body as unknown as Record<string, unknown>;
    const inFile = new Set(step.setInFile ?? []);
    for (const key of Object.keys(step.fromPrompt ?? {})) {
      if (inFile.has(key)) continue;
      if (key in DEFAULT_CRAWL) body[key] = structuredClone((DEFAULT_CRAWL as Record<string, unknown>)[key]);
      else delete body[key];
    }
    const applied: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(derived)) {
      if (inFile.has(key)) continue;
      body[key] = value;
      applied[key] = value;
    }
    if (Object.keys(applied).length > 0) step.fromPrompt = applied;
    else delete step.fromPrompt;
  }
}
