import { El } from "../dom.js";
import { countCommas } from "../parse.js";
import { classWeight, elementHints, hasUnlikelyRole, HINT_BYLINE, HINT_EMBED, HINT_MAYBE, HINT_UNLIKELY, isDialog, isHidden } from "./signals.js";

export const DROP = 1;
/** A div without block children: scored and cleaned like a paragraph. */
export const PARA = 2;
/** A div wrapping a single paragraph: its paragraph scores the div's parent directly. */
export const TRANSPARENT = 4;
export const CANDIDATE = 8;
/** Has a block-level descendant (one of BLOCKS). */
export const HAS_BLOCK = 16;
/** A table holding data rather than layout (set while cleaning the article). */
export const DATA_TABLE = 32;
/** A listing of priced items that is the article's main content (set while cleaning the article). */
export const LISTING = 64;

/** What this attempt is allowed to do; later attempts drop these steps when too little text came out. */
export interface ScoreFlags {
  stripUnlikely: boolean;
  weighClasses: boolean;
}

const TAGS_TO_SCORE = new Set(["section", "h2", "h3", "h4", "h5", "h6", "p", "td", "pre"]);
/** Children that keep a div from being treated as a paragraph. */
export const BLOCKS = new Set(["blockquote", "dl", "div", "img", "ol", "p", "pre", "table", "ul"]);
const EMPTY_REMOVABLE = new Set(["div", "section", "header", "h1", "h2", "h3", "h4", "h5", "h6"]);
const PHRASING = new Set(["abbr", "audio", "b", "bdo", "br", "button", "cite", "code", "data", "datalist", "dfn", "em", "embed", "i", "img", "input", "kbd", "label", "mark", "math", "meter", "object", "output", "progress", "q", "ruby", "samp", "select", "small", "span", "strong", "sub", "sup", "textarea", "time", "var", "wbr", "a", "del", "ins", "font", "u", "s", "strike", "tt", "big"]);
const STRUCTURAL = new Set(["#root", "html", "body"]);

/** A run of inline content directly inside a div that also holds blocks: scored as a paragraph of that div. */
interface LooseParagraph {
  parent: El;
  textLen: number;
  commas: number;
}

export interface Scored {
  candidates: El[];
  bylineFound: boolean;
  /** The byline this pass dropped ("By Jane Doe"), when it found one. */
  byline?: El;
}

/**
 * One scoring pass over the tree: marks what this attempt drops (hidden, dialogs, the byline,
 * unlikely candidates, empty containers), sums text, link text and commas bottom-up, then scores
 * every paragraph and credits its first five ancestors (the parent fully, the grandparent half, then
 * less). Returns the scored ancestors.
 */
export function scoreTree(root: El, flags: ScoreFlags): Scored {
  const paragraphs: El[] = [];
  const loose: LooseParagraph[] = [];
  const state: { bylineFound: boolean; byline?: El } = { bylineFound: false };

  const mark = (el: El, inTableOrCode: boolean): void => {
    el.flags = 0;
    el.score = 0;
    el.textLen = 0;
    el.linkLen = 0;
    el.commas = 0;
    const tag = el.tag;
    if (!STRUCTURAL.has(tag)) {
      if (isHidden(el) || isDialog(el)) {
        el.flags = DROP;
        return;
      }
      const hints = el.attrs.length === 0 ? 0 : elementHints(el);
      if (!state.bylineFound && (hints & HINT_BYLINE || el.attr("rel") === "author" || (el.attr("itemprop") ?? "").includes("author")) && isByline(el)) {
        state.bylineFound = true;
        state.byline = el;
        el.flags = DROP;
        return;
      }
      if (flags.stripUnlikely && ((hints & HINT_UNLIKELY && !(hints & (HINT_MAYBE | HINT_EMBED)) && tag !== "a" && !inTableOrCode) || hasUnlikelyRole(el))) {
        el.flags = DROP;
        return;
      }
    }
    const inside = inTableOrCode || tag === "table" || tag === "code";
    let text = el.ownText;
    let link = 0;
    let commas = el.ownCommas;
    const ownText = text > 0;
    let hasBlock = false;
    let elementCount = 0;
    let onlyBreaks = true;
    let only: El | undefined;
    for (const child of el.children) {
      if (typeof child === "string") continue;
      mark(child, inside);
      if (child.flags & DROP) continue;
      text += child.textLen;
      link += child.linkLen;
      commas += child.commas;
      if (BLOCKS.has(child.tag) || child.flags & HAS_BLOCK) hasBlock = true;
      elementCount++;
      only = child;
      if (child.tag !== "br" && child.tag !== "hr") onlyBreaks = false;
    }
    el.textLen = text;
    el.commas = commas;
    el.linkLen = tag === "a" ? ((el.attr("href") ?? "").startsWith("#") ? text * 0.3 : text) : link;
    if (hasBlock) el.flags |= HAS_BLOCK;
    if (EMPTY_REMOVABLE.has(tag) && text === 0 && (elementCount === 0 || onlyBreaks)) {
      el.flags = DROP;
      return;
    }
    if (TAGS_TO_SCORE.has(tag)) paragraphs.push(el);
    if (tag !== "div") return;
    if (elementCount === 1 && only!.tag === "p" && !ownText) {
      el.flags |= TRANSPARENT;
    } else if (!hasBlock) {
      el.flags |= PARA;
      paragraphs.push(el);
    } else {
      collectLoose(el, loose);
    }
  };
  mark(root, false);

  const candidates: El[] = [];
  const credit = (start: El | null, length: number, commas: number): void => {
    if (length < 25) return;
    const points = 1 + (commas + 1) + Math.min(Math.floor(length / 100), 3);
    let level = 0;
    for (let ancestor = start; ancestor !== null && level < 5; ancestor = ancestor.parent) {
      if (ancestor.flags & TRANSPARENT) continue;
      if (ancestor.parent === null || ancestor.parent.tag === "#root") break;
      if (!(ancestor.flags & CANDIDATE)) {
        initCandidate(ancestor, flags.weighClasses);
        candidates.push(ancestor);
      }
      ancestor.score += points / (level === 0 ? 1 : level === 1 ? 2 : level * 3);
      level++;
    }
  };
  for (const p of paragraphs) credit(p.parent, p.textLen, p.commas);
  for (const run of loose) credit(run.parent, run.textLen, run.commas);
  return { candidates, bylineFound: state.bylineFound, ...(state.byline ? { byline: state.byline } : {}) };
}

export function initCandidate(el: El, weighClasses: boolean): void {
  el.flags |= CANDIDATE;
  el.score = tagScore(el.tag) + (weighClasses ? classWeight(el) : 0);
}

function tagScore(tag: string): number {
  switch (tag) {
    case "div": return 5;
    case "pre": case "td": case "blockquote": return 3;
    case "address": case "ol": case "ul": case "dl": case "dd": case "dt": case "li": case "form": return -3;
    case "h1": case "h2": case "h3": case "h4": case "h5": case "h6": case "th": return -5;
    default: return 0;
  }
}

function collectLoose(div: El, out: LooseParagraph[]): void {
  let textLen = 0;
  let commas = 0;
  const flush = (): void => {
    if (textLen >= 25) out.push({ parent: div, textLen, commas });
    textLen = 0;
    commas = 0;
  };
  for (const child of div.children) {
    if (typeof child === "string") {
      textLen += trimmedLength(child);
      commas += countCommas(child);
    } else if (child.flags & DROP) {
      continue;
    } else if (PHRASING.has(child.tag) && !(child.flags & HAS_BLOCK)) {
      textLen += child.textLen;
      commas += child.commas;
    } else {
      flush();
    }
  }
  flush();
}

/** A plausible byline: some text, under 100 characters. */
function isByline(el: El): boolean {
  let length = 0;
  let budget = 300;
  const walk = (node: El): void => {
    for (const child of node.children) {
      if (length >= 100 || --budget < 0) return;
      if (typeof child === "string") length += trimmedLength(child);
      else walk(child);
    }
  };
  walk(el);
  return budget >= 0 && length > 0 && length < 100;
}

/** Length of a raw text run without its leading and trailing whitespace. */
export function trimmedLength(text: string): number {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) <= 32) start++;
  while (end > start && text.charCodeAt(end - 1) <= 32) end--;
  return end - start;
}

