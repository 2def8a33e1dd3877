import type { ExpectationResult, SourcePosition } from "../core/index.js";
import { EXPECTATION_PAGES_SHOWN } from "../core/index.js";

/** A tally of a `markdown:` expectation over the pages it is fed. */
export class MarkdownTally {
  private pagesSeen = 0;
  private shortest: number | undefined;
  private short = 0;
  private readonly missing = new Map<string, number>();
  private readonly pages: string[] = [];
  private pagesTotal = 0;

  constructor(private readonly rule: { minChars?: number; contains?: string[]; at: SourcePosition }) {}

  add(url: string, markdown: string | undefined): void {
    const text = markdown ?? "";
    this.pagesSeen++;
    this.shortest = Math.min(this.shortest ?? text.length, text.length);
    let broken = false;
    if (this.rule.minChars !== undefined && text.length < this.rule.minChars) {
      this.short++;
      broken = true;
    }
    for (const needle of this.rule.contains ?? []) {
      if (text.includes(needle)) continue;
      this.missing.set(needle, (this.missing.get(needle) ?? 0) + 1);
      broken = true;
    }
    if (broken) {
      this.pagesTotal++;
      if (this.pages.length < EXPECTATION_PAGES_SHOWN) this.pages.push(url);
    }
  }

  result(): ExpectationResult {
    const of = `of ${this.pagesSeen} page${this.pagesSeen === 1 ? "" : "s"}`;
    const problems: string[] = [];
    if (this.short > 0) problems.push(`${this.short} ${of} under ${this.rule.minChars} characters (shortest ${this.shortest})`);
    for (const [needle, count] of this.missing) problems.push(`${JSON.stringify(needle)} missing from ${count} ${of}`);
    const passed = problems.length === 0;
    return {
      name: "markdown",
      at: this.rule.at,
      passed,
      seen: this.pagesSeen === 0 ? "no pages" : `${this.pagesSeen} page${this.pagesSeen === 1 ? "" : "s"}, shortest ${this.shortest} characters`,
      problems,
      pages: passed ? [] : this.pages,
      pagesTotal: passed ? 0 : this.pagesTotal,
    };
  }
}
