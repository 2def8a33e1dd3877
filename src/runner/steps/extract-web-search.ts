import type { Step } from "../../core/index.js";
import { ScrapelineError, searchCredits } from "../../core/index.js";
import type { RunContext } from "../context.js";

type ExtractStep = Extract<Step, { kind: "extract" }>;

/** Pages a local extract's web search adds at most. */
export const WEB_SEARCH_PAGES = 5;
/** The longest query sent: the start of the prompt, cut at a word. */
const MAX_QUERY = 200;

/**
 * An extract's `enableWebSearch` on an engine that searches but does not run extracts itself: the
 * web is searched for the prompt, and the first results are pages to extract from as well. The
 * search is billed like a search step (2 credits per started 10 results). A resumed run reuses the
 * pages its first attempt found, so it extracts from the same pages.
 */
export async function webSearchPages(ctx: RunContext, step: ExtractStep, signal: AbortSignal): Promise<string[]> {
  const { engine, store } = ctx.ports;
  const saved = store.stepState(ctx.runId, step.id);
  if (saved !== undefined) return (JSON.parse(saved) as { webSearch: string[] }).webSearch;
  const query = searchQuery(step.body.prompt);
  if (query === undefined) {
    throw new ScrapelineError("invalid-input", `enableWebSearch searches the web for the extract's prompt, and extract step "${step.id}" has none: add a prompt, or set enableWebSearch: false`);
  }
  const estimate = searchCredits(WEB_SEARCH_PAGES);
  if (!ctx.budget.reserve(estimate)) throw new ScrapelineError("budget", `the web search of extract step "${step.id}" does not fit in the run's budget`);
  let found: string[];
  try {
    const answer = await engine.search!({ query, limit: WEB_SEARCH_PAGES, sources: [{ type: "web" }], timeout: 60_000, ignoreInvalidURLs: true }, { signal, onWait: (wait) => ctx.emit({ type: "step-waiting", stepId: step.id, waitMs: wait.waitMs, reason: wait.reason }) });
    found = (answer.data.web ?? []).map((r) => r.url).filter((url) => /^https?:\/\//i.test(url));
    for (const message of answer.warnings) ctx.emit({ type: "step-warning", stepId: step.id, message: `web search: ${message}` });
    const credits = answer.creditsUsed ?? searchCredits(answer.data.web?.length ?? 0);
    ctx.budget.settle(estimate, credits);
    if (credits > 0) store.recordCredits({ runId: ctx.runId, stepId: step.id, credits, reason: `extract web search: ${found.length} result(s)` });
  } catch (error) {
    ctx.budget.settle(estimate, 0);
    throw error;
  }
  store.saveStepState(ctx.runId, step.id, JSON.stringify({ webSearch: found }));
  return found;
}

/** The start of the prompt (its first line), at most MAX_QUERY characters, cut at a word. */
export function searchQuery(prompt: string | undefined): string | undefined {
  const line = prompt?.trim().split("\n")[0]?.trim();
  if (!line) return undefined;
  if (line.length <= MAX_QUERY) return line;
  const cut = line.slice(0, MAX_QUERY);
  const space = cut.lastIndexOf(" ");
  return space > MAX_QUERY / 2 ? cut.slice(0, space) : cut;
}
