import { El } from "../dom.js";
import { showsPrice } from "./data.js";
import { CANDIDATE, DROP, initCandidate, PARA } from "./score.js";

const TOP_CANDIDATES = 5;
const BODY_LIKE = new Set(["#root", "html", "body"]);
/** A block beside the article that shows a price is gathered when at most this long (a buy box, not a page of its own). */
const PRICE_BLOCK = 1000;

/**
 * The element that best holds the article, from the scored candidates: the best score after
 * discounting link text, moved up to a common ancestor when several close runners-up share one,
 * or to a parent that scores better, or past wrappers with a single child. Null when no element
 * qualifies (the whole body is then the article).
 */
export function pickTopCandidate(candidates: El[], weighClasses: boolean): El | null {
  const top: El[] = [];
  for (const candidate of candidates) {
    candidate.score *= 1 - linkDensity(candidate);
    for (let t = 0; t < TOP_CANDIDATES; t++) {
      const other = top[t];
      if (other === undefined || candidate.score > other.score) {
        top.splice(t, 0, candidate);
        if (top.length > TOP_CANDIDATES) top.pop();
        break;
      }
    }
  }
  let best = top[0];
  if (best === undefined || BODY_LIKE.has(best.tag)) return null;

  // Several close runners-up inside one ancestor: the ancestor is the article.
  const alternatives: El[][] = [];
  for (let i = 1; i < top.length; i++) {
    if (top[i]!.score / best.score >= 0.75) alternatives.push(ancestorsOf(top[i]!));
  }
  if (alternatives.length >= 3) {
    for (let parent = best.parent; parent !== null && !BODY_LIKE.has(parent.tag); parent = parent.parent) {
      let containing = 0;
      for (const list of alternatives) if (list.includes(parent)) containing++;
      if (containing >= 3) {
        best = parent;
        break;
      }
    }
  }
  if (!(best.flags & CANDIDATE)) initCandidate(best, weighClasses);

  // A parent scoring higher than its child on the way up holds more of the article.
  let lastScore = best.score;
  const threshold = lastScore / 3;
  for (let parent = best.parent; parent !== null && !BODY_LIKE.has(parent.tag); parent = parent.parent) {
    if (!(parent.flags & CANDIDATE)) continue;
    if (parent.score < threshold) break;
    if (parent.score > lastScore) {
      best = parent;
      break;
    }
    lastScore = parent.score;
  }

  // Wrappers with a single child add nothing; their siblings may hold more of the article.
  for (let parent = best.parent; parent !== null && !BODY_LIKE.has(parent.tag) && elementChildren(parent).length === 1; parent = best.parent) {
    best = parent;
  }
  if (!(best.flags & CANDIDATE)) initCandidate(best, weighClasses);
  return best;
}

/** The top candidate and those of its siblings that look like more of the same article. */
export function gatherSiblings(top: El): El[] {
  const parent = top.parent;
  if (parent === null) return [top];
  const threshold = Math.max(10, top.score * 0.2);
  const topClass = top.attr("class") ?? "";
  // At the page's top level, a block showing a price is the site's (a delivery offer, a mini-cart), not the product's.
  const inPage = !BODY_LIKE.has(parent.tag);
  const out: El[] = [];
  for (const sibling of elementChildren(parent)) {
    if (sibling === top) {
      out.push(sibling);
      continue;
    }
    const bonus = topClass !== "" && sibling.attr("class") === topClass ? top.score * 0.2 : 0;
    if (sibling.flags & CANDIDATE && sibling.score + bonus >= threshold) {
      out.push(sibling);
    } else if (sibling.tag === "p" || sibling.flags & PARA) {
      const density = linkDensity(sibling);
      const length = sibling.textLen;
      if (length > 80 && density < 0.25) out.push(sibling);
      else if (length < 80 && length > 0 && density === 0 && endsSentence(sibling)) out.push(sibling);
      else if (inPage && isPriceBlock(sibling, top)) out.push(sibling);
    } else if (inPage && isPriceBlock(sibling, top)) {
      out.push(sibling);
    }
  }
  return out;
}

/**
 * A product's name, price and stock beside its description: a block with few links, shorter than
 * the description, that shows a price on a line of its own.
 */
function isPriceBlock(el: El, top: El): boolean {
  return el.textLen > 0 && el.textLen <= Math.min(PRICE_BLOCK, top.textLen) && linkDensity(el) < 0.25 && showsPrice(el);
}

export function linkDensity(el: El): number {
  return el.textLen === 0 ? 0 : el.linkLen / el.textLen;
}

function ancestorsOf(el: El): El[] {
  const out: El[] = [];
  for (let parent = el.parent; parent !== null; parent = parent.parent) out.push(parent);
  return out;
}

export function elementChildren(el: El): El[] {
  const out: El[] = [];
  for (const child of el.children) if (typeof child !== "string" && !(child.flags & DROP)) out.push(child);
  return out;
}

/** Text with a full stop followed by a space or the end. */
function endsSentence(el: El): boolean {
  let text = "";
  const walk = (node: El): void => {
    for (const child of node.children) {
      if (typeof child === "string") text += child;
      else if (!(child.flags & DROP)) walk(child);
    }
  };
  walk(el);
  return /\.( |$)/.test(text.trim());
}
