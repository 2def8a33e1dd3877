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

/** A product card or a price list's row is short; a longer item is prose, not an entry of a listing. */
const ITEM_MAX = 600;

/**
 * Flags the listings of the article copy: blocks whose children are items alike (same tag and
 * class) that mostly show a price, holding a good share of the article's text. Their product cards
 * are links with a price under them, which would otherwise read as navigation; a smaller listing
 * beside a product's description (other products on offer) is left to the usual rules.
 */
export function markListings(root: El): void {
  const total = measureText(root);
  if (total === 0) return;
  const least = total * MAIN_SHARE;
  // Only blocks holding that share are looked at: a few containers on the way down, not every list of the page.
  const walk = (el: El): void => {
    for (const child of el.children) {
      if (typeof child === "string" || child.textLen < least) continue;
      if (isListing(child)) child.flags |= LISTING;
      else walk(child);
    }
  };
  walk(root);
}

/** Whether most children of a block are alike (same tag and class), and most of those short and showing a price. */
function isListing(el: El): boolean {
  const kids: El[] = [];
  for (const child of el.children) if (typeof child !== "string") kids.push(child);
  if (kids.length < MIN_ITEMS) return false;
  const needed = Math.max(MIN_ITEMS, kids.length * ALIKE_SHARE);
  // A kind holding that share of the children shows among the first ones.
  for (let i = 0; i <= kids.length - needed; i++) {
    const kind = kids[i]!;
    const cls = kind.attr("class");
    const items = kids.filter((kid) => kid.tag === kind.tag && kid.attr("class") === cls);
    if (items.length >= needed) return pricedItems(items);
  }
  return false;
}

function pricedItems(items: El[]): boolean {
  const needed = Math.max(MIN_ITEMS, items.length * PRICED_SHARE);
  let priced = 0;
  let left = items.length;
  for (const item of items) {
    if (item.textLen <= ITEM_MAX && showsPrice(item) && ++priced >= needed) return true;
    // A listing's first items are products too: three alike without a price are paragraphs or menu entries.
    if (priced + --left < needed || (priced === 0 && items.length - left === MIN_ITEMS)) return false;
  }
  return false;
}

/** Sets every element's text length (its scratch field) and returns the root's. */
function measureText(el: El): number {
  let length = el.ownText;
  for (const child of el.children) if (typeof child !== "string") length += measureText(child);
  el.textLen = length;
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
  measureText(root);
  const best: { listing: El | null; text: number } = { listing: null, text: 0 };
  const walk = (el: El): void => {
    for (const child of el.children) {
      if (typeof child === "string" || child.flags & DROP) continue;
      if (isListing(child)) {
        const text = child.textLen;
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
  for (let parent = container.parent; parent !== null && !BODY_LIKE.has(parent.tag) && best.text >= parent.textLen * CONTAINER_SHARE; parent = parent.parent) container = parent;
  return container;
}
