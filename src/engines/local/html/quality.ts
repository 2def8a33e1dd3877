import { decodeText, type El } from "./dom.js";
import { parseHtml } from "./parse.js";

/** Block-level elements: their text is separated from its neighbours by a line break. */
const BLOCKS = new Set(["p", "div", "section", "article", "li", "tr", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote", "br", "dt", "dd", "figcaption", "table", "ul", "ol"]);

/** The visible text of an HTML string (scripts, styles and the head left out). */
export function htmlText(html: string): string {
  const parts: string[] = [];
  const walk = (el: El): void => {
    for (const child of el.children) {
      if (typeof child === "string") parts.push(decodeText(child));
      else {
        const block = BLOCKS.has(child.tag);
        if (block) parts.push("\n");
        walk(child);
        if (block) parts.push("\n");
      }
    }
  };
  walk(parseHtml(html).root);
  return parts.join("");
}

const TOKEN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]|[\p{L}\p{N}]+/gu;

/** Lower-cased words; CJK characters count one token each, since those scripts do not space words. */
export function tokenize(text: string): string[] {
  return text.toLowerCase().match(TOKEN) ?? [];
}

/** Token-level F1 of a candidate against a reference, counting repeated tokens (bag of words). */
export function tokenF1(candidate: string[], reference: string[]): number {
  if (candidate.length === 0 && reference.length === 0) return 1;
  if (candidate.length === 0 || reference.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const token of reference) counts.set(token, (counts.get(token) ?? 0) + 1);
  let overlap = 0;
  for (const token of candidate) {
    const left = counts.get(token);
    if (left !== undefined && left > 0) {
      overlap++;
      counts.set(token, left - 1);
    }
  }
  if (overlap === 0) return 0;
  const precision = overlap / candidate.length;
  const recall = overlap / reference.length;
  return (2 * precision * recall) / (precision + recall);
}

/** F1 of the text of two HTML strings. */
export function htmlTokenF1(candidateHtml: string, referenceHtml: string): number {
  return tokenF1(tokenize(htmlText(candidateHtml)), tokenize(htmlText(referenceHtml)));
}

const WORD = /[\p{L}\p{N}_]+/gu;

/** True/false positives and false negatives of one page, normalised to sum 1 (all 0 for two empty texts). */
export interface ShingleCounts {
  tp: number;
  fp: number;
  fn: number;
}

/**
 * The article-extraction benchmark's per-page comparison: the texts are split into `\w+` tokens
 * (case kept), every run of 4 consecutive tokens is a shingle (a shorter text is one shingle), and
 * shingles are matched by multiplicity. The counts are normalised so that long pages weigh no more
 * than short ones.
 */
export function shingleCounts(candidate: string, reference: string): ShingleCounts {
  const ours = shingles(candidate);
  const theirs = shingles(reference);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const [key, count] of ours) {
    const other = theirs.get(key) ?? 0;
    tp += Math.min(count, other);
    fp += Math.max(0, count - other);
  }
  for (const [key, count] of theirs) fn += Math.max(0, count - (ours.get(key) ?? 0));
  const sum = tp + fp + fn;
  return sum === 0 ? { tp, fp, fn } : { tp: tp / sum, fp: fp / sum, fn: fn / sum };
}

function shingles(text: string): Map<string, number> {
  const tokens = text.match(WORD) ?? [];
  const out = new Map<string, number>();
  const last = Math.max(1, tokens.length - 3);
  for (let i = 0; i < last; i++) {
    const key = tokens.slice(i, i + 4).join(" ");
    if (key !== "") out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}

/**
 * The benchmark's summary of many pages: mean precision over pages that predicted anything, mean
 * recall over pages whose reference has anything, and the F1 of those two means.
 */
export function shingleScores(pages: ShingleCounts[]): { precision: number; recall: number; f1: number } {
  const precisions: number[] = [];
  const recalls: number[] = [];
  for (const { tp, fp, fn } of pages) {
    const perfect = fp === 0 && fn === 0;
    if (tp + fp > 0) precisions.push(perfect ? 1 : tp / (tp + fp));
    if (tp + fn > 0) recalls.push(perfect ? 1 : tp / (tp + fn));
  }
  const mean = (values: number[]): number => (values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length);
  const precision = mean(precisions);
  const recall = mean(recalls);
  return { precision, recall, f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall) };
}

/** Markdown as a reader sees it: backslash escapes removed, whitespace runs (no-break spaces too) one space. */
function readableMarkdown(markdown: string): string {
  return markdown.replace(/\\([\\`*_{}[\]()#+\-.!|~<>])/g, "$1").replace(/[\s\u00a0\u202f]+/g, " ");
}

/** Which of the strings that must be kept are missing from a page's markdown, and which of those that must not be are there. */
export function checkStrings(markdown: string, keep: readonly string[], drop: readonly string[]): { missing: string[]; leaked: string[] } {
  const text = readableMarkdown(markdown);
  const has = (s: string): boolean => text.includes(readableMarkdown(s));
  return { missing: keep.filter((s) => !has(s)), leaked: drop.filter(has) };
}
