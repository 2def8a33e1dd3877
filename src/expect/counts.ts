import type { CountBounds, CountName, ExpectationResult, SourcePosition } from "../core/index.js";
import { EXPECTATION_PAGES_SHOWN } from "../core/index.js";

const NOUNS: Record<CountName, string> = { documents: "stored", failed: "failed", blocked: "blocked", changed: "changed" };

/** Judges a count against its bounds; `tried` is what a share is of (pages stored and failed). */
export function judgeCount(name: CountName, bounds: CountBounds, at: SourcePosition, count: { value: number; tried: number; pages: readonly string[] }): ExpectationResult {
  const { value, tried } = count;
  const problems: string[] = [];
  if (bounds.min !== undefined && value < bounds.min) problems.push(`${value} ${NOUNS[name]}, expected at least ${bounds.min}`);
  if (bounds.max !== undefined && value > bounds.max) problems.push(`${value} ${NOUNS[name]}, expected at most ${bounds.max}`);
  if (bounds.maxShare !== undefined && tried > 0 && value / tried > bounds.maxShare) {
    problems.push(`${percent(value / tried)} ${NOUNS[name]} (${value} of ${tried}), expected at most ${percent(bounds.maxShare)}`);
  }
  const passed = problems.length === 0;
  return {
    name,
    at,
    passed,
    seen: `${value} ${NOUNS[name]} of ${tried} tried`,
    problems,
    pages: passed ? [] : count.pages.slice(0, EXPECTATION_PAGES_SHOWN),
    pagesTotal: passed ? 0 : count.pages.length,
  };
}

export function percent(share: number): string {
  const value = share * 100;
  return `${Number.isInteger(value) ? value : value.toFixed(1)} %`;
}
