import type { Document, ExtractionPage, ScrapeOptions } from "../../core/index.js";
import type { Extractor } from "./extract/index.js";
import { schemaViolations } from "./extract/validate.js";

/** Whether the options ask for a format the extractor produces (json, summary). */
export function wantsExtraction(options: ScrapeOptions): boolean {
  return options.formats.some((f) => f.type === "json" || f.type === "summary");
}

/**
 * Fills `json` and `summary` on a scraped document from its page. Tokens the model used are
 * reported in metadata.tokensUsed; a json answer that breaks the schema's required fields is a warning.
 */
export async function applyExtraction(document: Document, options: ScrapeOptions, page: ExtractionPage, extractor: Extractor, signal?: AbortSignal): Promise<void> {
  let tokens = 0;
  const warnings: string[] = [];
  for (const format of options.formats) {
    if (format.type === "json") {
      const spec = { ...(format.schema ? { schema: format.schema } : {}), ...(format.prompt ? { prompt: format.prompt } : {}) };
      const result = await extractor.extractPage(page, spec, signal);
      document.json = result.data;
      tokens += result.tokensUsed;
      warnings.push(...result.warnings);
      if (format.schema) {
        const violations = schemaViolations(format.schema, result.data);
        if (violations.length) warnings.push(`the extracted json does not match the schema: ${violations.join("; ")}`);
      }
    } else if (format.type === "summary") {
      const result = await extractor.summarize(page, signal);
      document.summary = result.summary;
      tokens += result.tokensUsed;
    }
  }
  if (tokens > 0) document.metadata["tokensUsed"] = tokens;
  if (warnings.length) document.warning = [document.warning, ...warnings].filter(Boolean).join(" ");
}
