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
