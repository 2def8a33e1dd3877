import { collapseSpace } from "./dom.js";

/** "By", "Von", "Par", "Por", "Di", "Door", "Av", "Af", "Przez", "Автор:", … before a byline's names. */
const LEAD = /^(by|written by|words by|story by|von|par|por|di|door|av|af|przez|autor(in)?|author|автор)\s*:?\s+/i;
/** Where a byline's names end: a separator before a date, a role or a place. */
const SEPARATOR = /\s+[|•·–—-]\s+|\s*\n\s*|,\s*(?=\d|updated|published|posted|staff|correspondent|reporter|editor)/i;

/**
 * The author's names from a byline's text ("By Jane Doe and John Roe | Nov. 18, 2019" → "Jane
 * Doe and John Roe"), or undefined when what is left does not read as names: digits, more than
 * eight words, or longer than 80 characters.
 */
export function authorFromByline(text: string): string | undefined {
  const first = collapseSpace(text.replace(/\s*\n\s*/g, "\n")).split(SEPARATOR)[0] ?? "";
  const names = first.replace(LEAD, "").replace(/[\s,;:|]+$/, "").trim();
  if (names === "" || names.length > 80 || /\d/.test(names)) return undefined;
  const words = names.split(" ");
  if (words.length > 8 || !/\p{Lu}/u.test(names)) return undefined;
  return names;
}
