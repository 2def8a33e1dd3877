import type { El, Node } from "../dom.js";
import { showsPrice } from "./data.js";

/**
 * Class and id values that templates give the element holding a story's text (article-body,
 * story-body, entry-content, post-content, articleBody, …), matched per class word.
 */
const BODY_NAME = /^([a-z0-9]+[-_]+)*(article|story|entry|post|news|blog|single|main)[-_]*(body|content|text|copy)([-_]+(inner|wrapper|container|main|text|content|body|[0-9]+))*$|^articlebody$|^storybody$/i;
/** The story's text must be at least this share of what was extracted before the rest is dropped. */
const BODY_SHARE = 0.5;

function isBodyElement(el: El): boolean {
  if (el.attrs.length === 0) return false;
  if (el.attr("itemprop") === "articleBody") return true;
  const id = el.attr("id");
  if (id !== undefined && BODY_NAME.test(id.trim())) return true;
  const cls = el.attr("class");
  if (cls === undefined) return false;
  for (const word of cls.split(/\s+/)) if (word !== "" && BODY_NAME.test(word)) return true;
  return false;
}

/**
 * When the extracted article holds an element marked as the story's body (`itemprop=articleBody`,
 * or a class such as `article-body`) with most of its text, the rest of the article goes except
 * the headings, figures and blocks of a product's data (price, stock) before that body: the teasers, captions of other stories and
 * newsletter boxes a template puts next to the body inside a common container. Returns whether
 * anything was dropped.
 */
export function narrowToBody(root: El, total: number): boolean {
  const bodies: El[] = [];
  findBodies(root, bodies);
  if (bodies.length === 0) return false;
  let text = 0;
  for (const body of bodies) text += body.textLen;
  if (text < total * BODY_SHARE || text === total) return false;
  const inside = new Set<El>();
  for (const body of bodies) for (let el: El | null = body.parent; el !== null && !inside.has(el); el = el.parent) inside.add(el);
  keepBodies(root, inside, new Set(bodies), { before: true });
  return true;
}

function findBodies(el: El, out: El[]): void {
  for (const child of el.children) {
    if (typeof child === "string") continue;
    if (isBodyElement(child)) out.push(child);
    else findBodies(child, out);
  }
}

const LEAD = new Set(["h1", "h2", "figure", "picture", "img"]);

function keepBodies(el: El, inside: Set<El>, bodies: Set<El>, state: { before: boolean }): void {
  const out: Node[] = [];
  for (const child of el.children) {
    if (typeof child === "string") {
      if (state.before || child.trim() === "") out.push(child);
      continue;
    }
    if (bodies.has(child)) {
      state.before = false;
      out.push(child);
    } else if (inside.has(child)) {
      keepBodies(child, inside, bodies, state);
      out.push(child);
    } else if (state.before && (isLead(child) || isProductData(child))) {
      out.push(child);
    }
  }
  el.children = out;
}

/** A product's name, price and stock before its description: a block with few links that shows a price on a line of its own. */
function isProductData(el: El): boolean {
  return el.textLen > 0 && el.linkLen < el.textLen * 0.25 && showsPrice(el);
}

/** A heading or a figure, alone or in a wrapper holding nothing else. */
function isLead(el: El): boolean {
  if (LEAD.has(el.tag)) return true;
  let only: El | undefined;
  for (const child of el.children) {
    if (typeof child === "string") {
      if (child.trim() !== "") return false;
      continue;
    }
    if (only !== undefined) return false;
    only = child;
  }
  return only !== undefined && isLead(only);
}
