import { El } from "../dom.js";
import { markListings } from "./listing.js";
import { DATA_TABLE, LISTING, PARA } from "./score.js";
import { classWeight, elementHints, HINT_EMBED, HINT_SHARE, isVideoEmbed } from "./signals.js";

/** Totals of a subtree after cleaning, used to judge its ancestors. */
interface Counts {
  text: number;
  link: number;
  commas: number;
  p: number;
  img: number;
  li: number;
  input: number;
  embed: number;
  heading: number;
  list: number;
  dataTable: boolean;
}

/** Where an element is, as bits: inside a data table or listing, a figure, code. */
const IN_DATA_TABLE = 1;
const IN_FIGURE = 2;
const IN_CODE = 4;

/**
 * The counts of each depth of the walk, reused from element to element and page to page: an
 * element's counts are added to its parent's before its next sibling is cleaned, so one object per
 * depth is enough (two fresh objects per element were a twentieth of what converting a page allocates).
 */
const countsAt: Counts[] = [];

function freshCounts(depth: number, text: number, commas: number, dataTable: boolean): Counts {
  let counts = countsAt[depth];
  if (counts === undefined) {
    counts = { text: 0, link: 0, commas: 0, p: 0, img: 0, li: 0, input: 0, embed: 0, heading: 0, list: 0, dataTable: false };
    countsAt[depth] = counts;
  }
  counts.text = text;
  counts.link = 0;
  counts.commas = commas;
  counts.p = 0;
  counts.img = 0;
  counts.li = 0;
  counts.input = 0;
  counts.embed = 0;
  counts.heading = 0;
  counts.list = 0;
  counts.dataTable = dataTable;
  return counts;
}

const ALWAYS_REMOVED = new Set(["footer", "aside", "link", "input", "textarea", "select", "button"]);
const EMBEDS = new Set(["object", "embed", "iframe"]);
const CONDITIONAL = new Set(["form", "fieldset", "table", "ul", "div"]);
const HEADINGS = new Set(["h1", "h2", "h3", "h4", "h5", "h6"]);
const AD_WORDS = /^(ad(vertising|vertisement)?|pub(licité)?|werb(ung)?|广告|Реклама|Anuncio)$/iu;
const LOADING_WORDS = /^((loading|正在加载|Загрузка|chargement|cargando)(…|\.\.\.)?)$/iu;

/**
 * Cleans the article copy bottom-up: drops form controls, footers, asides, non-video embeds,
 * clutter headings, small share widgets and empty paragraphs, and removes forms, tables, lists and
 * divs (outside data tables and listings of priced items) that look like navigation or ads (few commas, high link density, more images or list items
 * than paragraphs, …). Returns the length of the text left.
 */
export function prepArticle(root: El, options: { cleanConditionally: boolean; weighClasses: boolean }): number {
  markDataTables(root);
  markListings(root);
  const counts = clean(root, 0, 0, options);
  return counts?.text ?? 0;
}

/** Cleans `el`'s subtree; its counts (valid until the next element of its depth is cleaned), or null when `el` goes. */
function clean(el: El, context: number, depth: number, options: { cleanConditionally: boolean; weighClasses: boolean }): Counts | null {
  const tag = el.tag;
  // A data table and a listing of priced items are kept whole, links and all.
  const isDataTable = (el.flags & (DATA_TABLE | LISTING)) !== 0;
  const inner = context | (isDataTable ? IN_DATA_TABLE : 0) | (tag === "figure" ? IN_FIGURE : 0) | (tag === "code" || tag === "pre" ? IN_CODE : 0);
  const counts = freshCounts(depth, el.ownText, el.ownCommas, isDataTable);
  const children = el.children;
  let kept = 0;
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    if (typeof child === "string") {
      children[kept++] = child;
      continue;
    }
    if (child.tag === "input") counts.input++;
    const sub = clean(child, inner, depth + 1, options);
    if (sub === null) continue;
    children[kept++] = child;
    counts.text += sub.text;
    counts.link += child.tag === "a" ? ((child.attr("href") ?? "").startsWith("#") ? sub.text * 0.3 : sub.text) : sub.link;
    counts.commas += sub.commas;
    counts.p += sub.p + (child.tag === "p" || child.flags & PARA ? 1 : 0);
    counts.img += sub.img + (child.tag === "img" ? 1 : 0);
    counts.li += sub.li + (child.tag === "li" ? 1 : 0);
    counts.input += sub.input;
    counts.embed += sub.embed + (EMBEDS.has(child.tag) ? 1 : 0);
    counts.heading += HEADINGS.has(child.tag) ? sub.text : sub.heading;
    counts.list += child.tag === "ul" || child.tag === "ol" ? sub.text : sub.list;
    counts.dataTable ||= sub.dataTable;
  }
  if (kept !== children.length) children.length = kept;
  if (depth === 0) return counts;
  return shouldRemove(el, counts, context, depth, options) ? null : counts;
}

function shouldRemove(el: El, counts: Counts, context: number, depth: number, options: { cleanConditionally: boolean; weighClasses: boolean }): boolean {
  const tag = el.tag;
  if (ALWAYS_REMOVED.has(tag)) return true;
  if (EMBEDS.has(tag)) return !isVideoEmbed(el);
  if ((tag === "h1" || tag === "h2") && options.weighClasses && classWeight(el) < 0) return true;
  if (depth > 1 && counts.text < 500 && el.attrs.length > 0 && elementHints(el) & HINT_SHARE) return true;
  if (tag === "p" || el.flags & PARA) return counts.text === 0 && counts.img + counts.embed === 0;
  if (options.cleanConditionally && CONDITIONAL.has(tag)) {
    // An embedded post with its words (a tweet's text and author) is quoted content, links and all.
    if (counts.text > 0 && el.attrs.length > 0 && elementHints(el) & HINT_EMBED) return false;
    return isClutter(el, counts, context, options.weighClasses);
  }
  return false;
}

function isClutter(el: El, counts: Counts, context: number, weighClasses: boolean): boolean {
  if (context & (IN_DATA_TABLE | IN_CODE) || counts.dataTable) return false;
  const inFigure = (context & IN_FIGURE) !== 0;
  const tag = el.tag;
  const text = counts.text;
  const isList = tag === "ul" || tag === "ol" || (text > 0 && counts.list / text > 0.9);
  const weight = weighClasses ? classWeight(el) : 0;
  if (weight < 0) return true;
  if (counts.commas >= 10) return false;
  const { p, img, input, embed } = counts;
  const li = counts.li - 100;
  const linkDensity = text === 0 ? 0 : counts.link / text;
  const headingDensity = text === 0 ? 0 : counts.heading / text;
  if (text > 0 && text < 30) {
    const words = shortText(el).trim();
    if (AD_WORDS.test(words) || LOADING_WORDS.test(words)) return true;
  }
  const remove =
    (!inFigure && img > 1 && p / img < 0.5) ||
    (!isList && li > p) ||
    input > Math.floor(p / 3) ||
    (!isList && !inFigure && headingDensity < 0.9 && text < 25 && (img === 0 || img > 2) && linkDensity > 0) ||
    (!isList && weight < 25 && linkDensity > 0.2) ||
    (weight >= 25 && linkDensity > 0.5) ||
    (embed === 1 && text < 75) ||
    embed > 1;
  if (remove && isList) return !isImageList(el);
  return remove;
}

/** A list whose every item is just an image (a gallery) is content. */
function isImageList(el: El): boolean {
  for (const child of el.children) {
    if (typeof child === "string") continue;
    const kids = child.children.filter((node): node is El => typeof node !== "string");
    if (kids.length !== 1 || kids[0]!.tag !== "img") return false;
  }
  return true;
}

/** The text of a small subtree; gives up (returns "") past a few hundred nodes. */
function shortText(el: El): string {
  let out = "";
  let budget = 300;
  const walk = (node: El): void => {
    for (const child of node.children) {
      if (--budget < 0) return;
      if (typeof child === "string") out += child;
      else walk(child);
    }
  };
  walk(el);
  return budget < 0 ? "" : out;
}

/**
 * Flags data tables (as opposed to layout tables): a summary or caption,
 * header cells or column groups, or at least 10 rows or more than 4 columns, and no nested table.
 */
function markDataTables(root: El): void {
  for (const child of root.children) {
    if (typeof child === "string") continue;
    markDataTables(child);
    if (child.tag === "table" && isDataTable(child)) child.flags |= DATA_TABLE;
  }
}

function isDataTable(table: El): boolean {
  const role = table.attr("role");
  if (role === "presentation" || table.attr("datatable") === "0") return false;
  if (table.attr("summary")) return true;
  let rows = 0;
  let columns = 0;
  let headerish = false;
  let nested = false;
  let caption = false;
  const walk = (el: El): void => {
    for (const child of el.children) {
      if (typeof child === "string") continue;
      const tag = child.tag;
      if (tag === "table") nested = true;
      else if (tag === "caption" && child.children.length > 0) caption = true;
      else if (tag === "col" || tag === "colgroup" || tag === "tfoot" || tag === "thead" || tag === "th") headerish = true;
      if (tag === "tr") {
        rows += Number.parseInt(child.attr("rowspan") ?? "1", 10) || 1;
        let cells = 0;
        for (const cell of child.children) {
          if (typeof cell !== "string" && (cell.tag === "td" || cell.tag === "th")) cells += Number.parseInt(cell.attr("colspan") ?? "1", 10) || 1;
          if (typeof cell !== "string" && cell.tag === "th") headerish = true;
        }
        columns = Math.max(columns, cells);
      }
      if (tag !== "table") walk(child);
    }
  };
  walk(table);
  if (caption || headerish) return true;
  if (nested) return false;
  if (rows >= 10 || columns > 4) return true;
  return rows * columns > 10;
}
