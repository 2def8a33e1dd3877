import { createHash } from "node:crypto";

/**
 * The scrapeId of a page a pipeline's scrape step stored: UUID-shaped, derived from the
 * pipeline's name, the step's id and the page's URL. The same page of the same step gets the same
 * id in every run, so an id can be written in the pipeline file (`interact: {scrapeIds}`), and an
 * unchanged page stores the same document as before (its content is deduplicated; a random id
 * made every run's copy differ).
 */
export function pipelineScrapeId(pipeline: string, stepId: string, url: string): string {
  const hex = createHash("sha256").update(JSON.stringify(["scrape", pipeline, stepId, url])).digest("hex");
  // Version 8 (custom) UUID layout: the version nibble 8, the variant bits 10.
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
