import { collapseSpace, textContent, type El, type Node } from "../dom.js";
import { narrowToBody } from "./body.js";
import { trimmedLength } from "./score.js";
import { classAndId, isAroundName, isBylineText, isCredit, isDateLine, isLabel, isPopupName, isSmallPrintName } from "./boilerplate.js";
import { isLegalBlock, isNoticeText, isPrintOnly, mayBeNotice, NOTICE_MAX } from "./notices.js";
import { hasDataMarkup, hasDataToken, holdsData } from "./data.js";
import { linesOf, PHRASING } from "./lines.js";

/** Never pruned: what they hold is content whatever it looks like. */
const KEPT = new Set(["pre", "code", "table", "math", "blockquote"]);
const HEADINGS = new Set(["h1", "h2", "h3", "h4", "h5", "h6"]);
const LISTS = new Set(["ul", "ol"]);
/** A block this short may be a label, a dateline, a byline or a credit, and is read. */
const SHORT = 120;
/** Small print (byline, date, credit) is at most this long. */
const SMALL = 200;
/** A block holding this share of the article is part of it whatever its class says. */
const MAJOR_SHARE = 0.4;
const EMBED = /embed/i;
const RATING = /rating|review/i;
/** A block this short made only of a link is a teaser for another page. */
const LINK_LINE = 150;
const READ_MORE = /^(see|read|watch|click) (more|also|next|here)\b|^(related|more|also read|see also|recommended|watch|listen)\s*:|^(lesen sie|lire|leia|lee|leggi)\b/i;

/** Text inside elements named as small print (byline, date, credit) in the subtree `measure` walked last. */
let measuredSmall = 0;

/**
 * Removes what a news or blog template puts around the story from the extracted article:
 * blocks named for sharing, related links, comments or subscriptions; bylines, datelines and
 * photo credits (by name or by their text); labels such as "Related articles" or
 * "Advertisement", with the link list a label introduces; and lists that are all links.
 */
export function pruneBoilerplate(root: El): void {
  let smallOf = new Map<El, number>();
  measure(root, smallOf, false);
  let total = root.textLen;
  if (total === 0) return;
  if (narrowToBody(root, total)) {
    smallOf = new Map();
    measure(root, smallOf, false);
    total = root.textLen;
  }
  prune(root, total, smallOf, new Set());
}

/**
 * Text statistics of a subtree of the article copy, kept in each element's scratch fields
 * (`textLen`, `linkLen`; the small print of those that hold some in `smallOf`), without an object
 * per element.
 */
function measure(el: El, smallOf: Map<El, number>, inSmall: boolean): void {
  const named = !inSmall && el.attrs.length > 0 && isSmallPrintName(classAndId(el));
  let text = el.ownText;
  let link = 0;
  let small = 0;
  for (const child of el.children) {
    if (typeof child === "string") continue;
    measure(child, smallOf, inSmall || named);
    text += child.textLen;
    link += child.tag === "a" ? ((child.attr("href") ?? "").startsWith("#") ? child.textLen * 0.3 : child.textLen) : child.linkLen;
    small += measuredSmall;
  }
  if (named) small = text;
  el.textLen = text;
  el.linkLen = link;
  if (small > 0) smallOf.set(el, small);
  measuredSmall = small;
}

function prune(el: El, total: number, smallOf: Map<El, number>, seen: Set<string>): void {
  const children = el.children;
  let kept = 0;
  let mixed = false;
  let dropListAfterLabel = false;
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    if (typeof child === "string") {
      children[kept++] = child;
      continue;
    }
    if (dropListAfterLabel && child.textLen > 0) {
      dropListAfterLabel = false;
      if (child.linkLen / child.textLen > 0.5 && child.textLen < total * MAJOR_SHARE) continue;
    }
    const verdict = judge(child, total, smallOf, seen);
    if (verdict === Verdict.Drop) continue;
    if (verdict === Verdict.DropWithList) {
      dropListAfterLabel = true;
      continue;
    }
    if (!KEPT.has(child.tag)) prune(child, total, smallOf, seen);
    if (!PHRASING.has(child.tag)) mixed = true;
    children[kept++] = child;
  }
  if (kept !== children.length) children.length = kept;
  if (mixed) dropLooseRuns(el);
}

/**
 * In a block that also holds blocks, each run of inline content between them is a line of its
 * own: a run that is a dateline, a byline, a credit or a label goes ("Updated 5:27 am" after a
 * headline, in the same div).
 */
function dropLooseRuns(el: El): void {
  const children = el.children;
  // The children kept, made only once a run is dropped (most blocks keep every run).
  let out: Node[] | undefined;
  let runStart = 0;
  let length = 0;
  const endRun = (end: number): void => {
    if (end > runStart) {
      const dropped = length > 0 && length <= SHORT && isSmallPrintLine(collapseSpace(children.slice(runStart, end).map(textContent).join("")));
      if (dropped) out ??= children.slice(0, runStart);
      else if (out !== undefined) for (let i = runStart; i < end; i++) out.push(children[i]!);
    }
    length = 0;
  };
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    if (typeof child === "string") length += trimmedLength(child);
    else if (PHRASING.has(child.tag) && child.tag !== "br") length += child.textLen;
    else {
      endRun(i);
      out?.push(child);
      runStart = i + 1;
    }
  }
  endRun(children.length);
  if (out !== undefined) el.children = out;
}

/** A dateline, a byline, a credit or a label, unless it holds a price, a quantity, a stock state or a rating. */
function isSmallPrintLine(line: string): boolean {
  return (isCredit(line) || isDateLine(line) || isBylineText(line) || isLabel(line)) && !hasDataToken(line);
}

/** Whether a definition list's value, read after its term, is something other than small print. */
function isDataValue(dd: El, line: string): boolean {
  const siblings = dd.parent?.children ?? [];
  for (let i = siblings.indexOf(dd) - 1; i >= 0; i--) {
    const term = siblings[i]!;
    if (typeof term === "string") continue;
    return term.tag === "dt" && !isSmallPrintLine(`${collapseSpace(textContent(term))} ${line}`);
  }
  return false;
}

/** A number alone: a figure in a block of its own, a counter on a picture (a gallery's "6"). */
const COUNT = /^\d+$/;

function inFigure(el: El): boolean {
  for (let parent = el.parent; parent !== null; parent = parent.parent) if (parent.tag === "figure" || parent.tag === "picture") return true;
  return false;
}



const enum Verdict {
  Keep,
  Drop,
  /** A label introducing a list: it goes, and so does the list after it when that is mostly links. */
  DropWithList,
}

function judge(el: El, total: number, smallOf: Map<El, number>, seen: Set<string>): Verdict {
  const tag = el.tag;
  if (KEPT.has(tag) || tag === "img" || tag === "figure" || tag === "picture") return Verdict.Keep;
  const text = el.textLen;
  const inline = PHRASING.has(tag);
  if (!inline && el.attrs.length > 0 && text < total * MAJOR_SHARE) {
    const names = classAndId(el);
    // An embedded post (a tweet in a "social-embed" box) is quoted content, not a share bar.
    // A product's rating with its figures ("4.5 (218 reviews)") is its data, not a "rate this" widget.
    if (names !== "" && isAroundName(names) && !EMBED.test(names) && !(RATING.test(names) && holdsData(el))) return Verdict.Drop;
    if (isPrintOnly(el) || isLegalBlock(names, text)) return Verdict.Drop;
  }
  if (text === 0) return Verdict.Keep;
  if (el.attrs.length > 0 && text < total * MAJOR_SHARE && isPopupName(classAndId(el)) && isPopupCard(el)) return Verdict.Drop;
  if (!inline && text <= NOTICE_MAX && isNotice(el)) return Verdict.Drop;
  if (!inline && text <= SMALL && (smallOf.get(el) ?? 0) >= text * 0.8 && !holdsData(el)) return Verdict.Drop;
  if (LISTS.has(tag) && el.linkLen / text > 0.7 && text < total * MAJOR_SHARE && !hasSentences(el)) return Verdict.Drop;
  if (inline) return Verdict.Keep;
  if (tag === "figcaption" || /caption/i.test(classAndId(el))) {
    // The same caption again is a slideshow's (each slide repeats it, or shows it in full and cut short).
    const line = collapseSpace(textContent(el));
    if (seen.has(line) || isCutShortAgain(line, seen)) return Verdict.Drop;
    seen.add(line);
  }
  if (text <= LINK_LINE && tag === "p" && (el.linkLen >= text * 0.9 || (el.linkLen >= text * 0.5 && READ_MORE.test(collapseSpace(textContent(el)))))) {
    // A line that is only a link (or "Read more: <link>") points to another story.
    return Verdict.Drop;
  }
  if (text > SHORT) return Verdict.Keep;
  const lines = linesOf(el);
  if (lines.length === 1 && isLabel(lines[0]!)) return HEADINGS.has(tag) || tag === "div" || tag === "p" || tag === "span" ? Verdict.DropWithList : Verdict.Drop;
  if (lines.length === 0 || hasDataMarkup(el)) return Verdict.Keep;
  // A definition's value is read with its term: "Published" and a date is a dateline, "Best before" and a date is data.
  if (tag === "dd" && lines.length === 1 && isDataValue(el, lines[0]!)) return Verdict.Keep;
  return lines.every(isSmallPrintLine) || (lines.length === 1 && COUNT.test(lines[0]!) && inFigure(el)) ? Verdict.Drop : Verdict.Keep;
}

/**
 * A card that pops up over a link (a person's photo and latest stories): it holds a picture or
 * blocks and neither text nor a link of its own, which would be the words the sentence shows.
 */
function isPopupCard(el: El): boolean {
  let card = false;
  for (const child of el.children) {
    if (typeof child === "string") {
      if (trimmedLength(child) > 0) return false;
    } else if (child.tag === "a") return false;
    else if (child.tag === "img" || child.tag === "picture" || !PHRASING.has(child.tag) || child.children.some((c) => typeof c !== "string" && (c.tag === "img" || c.tag === "a"))) card = true;
  }
  return card;
}

/** The toggle a cut-short caption ends with ("… more") and the full one ("less"), in several languages. */
const TOGGLE = /\s*(\.\.\.|…)?\s*(read more|show more|show less|more|less|mehr|weniger|plus|moins|más|menos|mais|altro)?\s*$/i;
/** A stem this long is a sentence of its own, not a common opening ("Photo of"). */
const STEM = 40;

/** A caption that is one already kept, cut short and ended with a toggle ("… more") or an ellipsis. */
function isCutShortAgain(line: string, seen: Set<string>): boolean {
  const stem = line.replace(TOGGLE, "");
  if (stem.length < STEM || stem.length === line.length) return false;
  // An earlier caption that holds this whole line is the block around it (a caption box with both versions), not another caption.
  for (const earlier of seen) if (earlier.length > stem.length && earlier.startsWith(stem) && !earlier.includes(line)) return true;
  return false;
}

/** A block whose lines are the site's notices (citation, copyright, "requires JavaScript"), with at most small print beside them. */
function isNotice(el: El): boolean {
  if (!mayBeNotice(textContent(el))) return false;
  const lines = linesOf(el);
  return lines.some(isNoticeText) && lines.every((line) => isNoticeText(line) || isSmallPrintLine(line));
}


/** Whether a list's items read as prose (some item has 100 characters of text outside links). */
function hasSentences(list: El): boolean {
  for (const item of list.children) {
    if (typeof item === "string") continue;
    if (item.textLen - item.linkLen >= 100) return true;
  }
  return false;
}
