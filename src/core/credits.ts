import type { Document } from "./document.js";
import type { ScrapeOptions } from "./types.js";

/** The billing rules as a port (implemented in src/credits), so the runner can charge and budget. */
export interface CreditRules {
  /** Credits a stored document costs (SPEC.md / DESIGN.md §6). */
  forDocument(document: Document, options: ScrapeOptions): number;
  /** Credits one page is expected to cost before it is fetched (budget checks). */
  estimatePage(options: ScrapeOptions): number;
  /** Credits of a token-billed operation (extract): 1 credit per 15 tokens, rounded up. */
  forTokens(tokens: number): number;
}
