import type { El } from "../dom.js";
import { showsPrice } from "./data.js";
import { DROP, LISTING } from "./score.js";

/** A listing has at least this many items alike. */
const MIN_ITEMS = 3;
/** Share of a block's children that must be items alike, and share of those items that must show a price. */
const ALIKE_SHARE = 0.6;
const PRICED_SHARE = 0.6;
/** A listing holding this share of the article's text is what the page is about (a category, search results, a price list). */
const MAIN_SHARE = 0.4;

/**
 * Flags the listings of the article copy: blocks whose children are items alike (same tag and
 * class) that mostly show a price, holding a good share of the article's text. Their product cards
 * are links with a price under them, which would otherwise read as navigation; a smaller listing
 * beside a product's description (other products on offer) is left to the usual rules.
 */
export function markListings(root: El): void {
  const total = textLength(root);
  if (total === 0) return;
  const walk = (el: El): void => {
    for (const child of el.children) {
      if (typeof child === "string") continue;
      if (isListing(child) && textLength(child) >= total * MAIN_SHARE) child.flags |= LISTING;
      else walk(child);
    }
  };
  walk(root);
}

function isListing(el: El): boolean {
  const counts = new Map<string, El[]>();
  let children = 0;
  for (const child of el.children) {
    if (typeof child === "string") continue;
    children++;
    const key = `${child.tag} ${child.attr("class") ?? ""}`;
    const same = counts.get(key);
    if (same === undefined) counts.set(key, [child]);
    else same.push(child);
  }
  if (children < MIN_ITEMS) return false;
  for (const items of counts.values()) {
    if (items.length < MIN_ITEMS || items.length < children * ALIKE_SHARE) continue;
    let priced = 0;
    for (const item of items) if (showsPrice(item)) priced++;
    return priced >= MIN_ITEMS && priced >= items.length * PRICED_SHARE;
  }
  return false;
}

function textLength(el: El): number {
  let length = el.ownText;
  for (const child of el.children) if (typeof child !== "string") length += textLength(child);
  return length;
}

/** The page's containers that are the whole page rather than a part of it. */
const BODY_LIKE = new Set(["#root", "html", "body"]);
/** Going up from a listing, a container stays the listing's while the listing holds this share of its text (a heading and a count around it). */
const CONTAINER_SHARE = 0.6;

/**
 * The block around the page's largest listing of priced items (with the heading and count that
 * introduce it), or null when the page has none. For a category or a search page without prose,
 * where scoring finds no paragraph to go by.
 */
export function findMainListing(root: El): El | null {
  const best: { listing: El | null; text: number } = { listing: null, text: 0 };
  const walk = (el: El): void => {
    for (const child of el.children) {
      if (typeof child === "string" || child.flags & DROP) continue;
      if (isListing(child)) {
        const text = textLength(child);
        if (text > best.text) {
          best.listing = child;
          best.text = text;
        }
      } else walk(child);
    }
  };
  walk(root);
  let container = best.listing;
  if (container === null) return null;
  for (let parent = container.parent; parent !== null && !BODY_LIKE.has(parent.tag) && best.text >= textLength(parent) * CONTAINER_SHARE; parent = parent.parent) container = parent;
  return container;
}
