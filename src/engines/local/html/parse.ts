import { decodeHTMLAttribute } from "entities";
import type { TokenizerCallbacks } from "htmlparser2";
import { El, NO_ATTRS } from "./dom.js";
import { hints } from "./main-content/signals.js";
import { knownName, READ_ATTRIBUTES, readName } from "./names.js";
import { CLOSES, DROPPED, FOREIGN, HEAD_CONTENT, impliedCloses, OPAQUE, PREFORMATTED, tagFlags, VOID } from "./tag-rules.js";
import { FastTokenizer } from "./tokenizer.js";

/** What the document's head (and stray `<meta>`s) says, collected while parsing. */
export interface PageInfo {
  title?: string;
  lang?: string;
  baseHref?: string;
  /** Attribute lists of every `<meta>` and `<link>`, in document order. */
  metas: string[][];
  links: string[][];
  /** The `href` of every `<a>` of the page as written, in document order (with `anchors`). */
  anchors: string[];
  /** The text of each `<script type="application/ld+json">` (structured data), at most JSON_LD_LIMIT characters in all. */
  jsonLd: string[];
}

/** Structured data kept from one page, in characters: enough for any article's, not for a data dump. */
export const JSON_LD_LIMIT = 1 << 20;

export interface ParseOptions {
  /** Keep every attribute (for the html output and CSS selectors); otherwise only those some pass reads. */
  allAttributes?: boolean;
  /** Work out class/id hints for main-content scoring while the attribute text is at hand. */
  hints?: boolean;
  /** Collect the href of every `<a>` the tree keeps, before any pass prunes it. */
  anchors?: boolean;
}

export interface ParsedPage {
  root: El;
  info: PageInfo;
}

/** Nesting deeper than this is flattened: it only occurs in broken or hostile markup. */
const MAX_DEPTH = 256;

/**
 * The open-element tables of the last finished parse, reused by the next: making two typed arrays
 * costs more than a page's use of them. A parse that finds none (one under way) makes its own.
 */
let spareTables: { masks: Int32Array; flags: Int32Array } | undefined;

/** Builds the compact tree from htmlparser2's tokenizer events, in one pass, without decoding entities. */
class TreeBuilder implements TokenizerCallbacks {
  readonly root = new El("#root", NO_ATTRS, null);
  readonly info: PageInfo = { metas: [], links: [], anchors: [], jsonLd: [] };
  private inJsonLd = false;
  private jsonLdLength = 0;
  private cur = this.root;
  private depth = 0;
  private overflow = 0;
  private foreign = 0;
  private inTitle = false;
  /** For each depth, a bit per tag-name bucket present on the open-element chain (cheap "is it open?" check). */
  readonly masks: Int32Array;
  /** Tag flags of the open element at each depth. */
  readonly flags: Int32Array;
  private tag = "";
  private attrs: string[] = NO_ATTRS;
  private attrName = "";
  private attrValue = "";
  private skipAttr = false;
  private pendingHints = -1;
  /** Inside pre or textarea, where whitespace is content. */
  private preformatted = 0;
  private readonly allAttributes: boolean;
  private readonly hints: boolean;
  private readonly anchors: boolean;

  constructor(private readonly html: string, options: ParseOptions) {
    this.allAttributes = options.allAttributes ?? true;
    this.hints = options.hints ?? false;
    this.anchors = options.anchors ?? false;
    // Entries above the root are written when an element opens, before they are read.
    this.masks = spareTables?.masks ?? new Int32Array(MAX_DEPTH + 2);
    this.flags = spareTables?.flags ?? new Int32Array(MAX_DEPTH + 2);
    spareTables = undefined;
    this.masks[0] = 0;
    this.flags[0] = 0;
  }

  isInForeignContext(): boolean {
    return this.foreign > 0;
  }

  onopentagname(start: number, end: number): void {
    const name = readName(this.html, start, end);
    this.tag = name === "image" && this.foreign === 0 ? "img" : name;
    this.attrs = NO_ATTRS;
    this.pendingHints = this.hints ? 0 : -1;
  }

  onattribname(start: number, end: number): void {
    this.attrValue = "";
    if (this.allAttributes) {
      this.attrName = readName(this.html, start, end);
      this.skipAttr = false;
      return;
    }
    // Unknown lower-case names are never read: skip them without allocating.
    const known = knownName(this.html, start, end);
    const first = this.html.charCodeAt(start);
    const name = known ?? (first >= 97 && first <= 122 ? undefined : readName(this.html, start, end));
    this.skipAttr = name === undefined || !READ_ATTRIBUTES.has(name);
    this.attrName = name ?? "";
  }

  onattribdata(start: number, end: number): void {
    if (!this.skipAttr) this.attrValue += this.html.slice(start, end);
  }

  onattribentity(): void {}

  onattribend(): void {
    if (this.skipAttr) return;
    const name = this.attrName;
    const attrs = this.attrs;
    for (let i = 0; i < attrs.length; i += 2) if (attrs[i] === name) return;
    const raw = this.attrValue;
    const value = raw.indexOf("&") === -1 ? raw : decodeHTMLAttribute(raw);
    if (attrs === NO_ATTRS) this.attrs = [name, value];
    else attrs.push(name, value);
    if (this.pendingHints >= 0) {
      if (name === "class") this.pendingHints |= hints(value);
      else if (name === "id") this.pendingHints |= hints(value) << 8;
    }
  }

  onopentagend(): void {
    this.openElement(false);
  }

  onselfclosingtag(): void {
    this.openElement(true);
  }

  onclosetag(start: number, end: number): void {
    const name = readName(this.html, start, end);
    if (tagFlags(name) & VOID) {
      if (name === "br") {
        this.tag = "br";
        this.attrs = NO_ATTRS;
        this.openElement(true);
      }
      return;
    }
    if (this.isOpen(name)) {
      while (this.cur.tag !== name) this.pop();
      this.pop();
    } else if (this.overflow > 0) {
      this.overflow--;
    }
  }

  ontext(start: number, end: number): void {
    const cur = this.cur;
    const html = this.html;
    if (cur.skip) {
      if (this.inTitle) this.info.title = (this.info.title ?? "") + html.slice(start, end);
      else if (this.inJsonLd && this.jsonLdLength + (end - start) <= JSON_LD_LIMIT) {
        const texts = this.info.jsonLd;
        texts[texts.length - 1] += html.slice(start, end);
        this.jsonLdLength += end - start;
      }
      return;
    }
    const children = cur.children;
    const last = children.length - 1;
    // Text statistics for main-content scoring, taken while these characters are still in cache.
    let from = start;
    let to = end;
    while (from < to && html.charCodeAt(from) <= 32) from++;
    while (to > from && html.charCodeAt(to - 1) <= 32) to--;
    let text: string;
    if (to > from) {
      text = html.slice(start, end);
      cur.ownText += to - from;
      cur.ownCommas += countCommas(text);
    } else {
      // Whitespace between tags: one shared space, unless it is preformatted content.
      text = this.preformatted > 0 ? html.slice(start, end) : " ";
    }
    if (last >= 0 && typeof children[last] === "string") children[last] += text;
    else children.push(text);
  }

  ontextentity(): void {}
  oncomment(): void {}
  oncdata(): void {}
  ondeclaration(): void {}
  onprocessinginstruction(): void {}
  onend(): void {}

  private openElement(selfClosing: boolean): void {
    const name = this.tag;
    // Exact-size copies: arrays grown by push keep spare capacity, which adds up on large pages.
    const attrs = this.attrs.length > 2 ? this.attrs.slice() : this.attrs;
    this.attrs = NO_ATTRS;
    const flags = tagFlags(name);
    if (this.cur.tag === "head" && (flags & HEAD_CONTENT) === 0) this.pop();
    if (flags & CLOSES) {
      const closes = impliedCloses(name)!;
      while (closes.has(this.cur.tag)) this.pop();
    }
    const parent = this.cur;
    const hidden = parent.skip || (this.flags[this.depth]! & OPAQUE) !== 0;
    if (flags & VOID) {
      if (name === "meta" || name === "link") {
        (name === "meta" ? this.info.metas : this.info.links).push(attrs);
        // Microdata properties are stated with <meta itemprop content> and <link itemprop href> inside items.
        if (!hidden && attrs.includes("itemprop")) parent.children.push(new El(name, attrs, parent));
      }
      else if (name === "base") this.info.baseHref ??= attrs.length > 0 ? baseHref(attrs) : undefined;
      else if (!hidden) parent.children.push(new El(name, attrs, parent));
      return;
    }
    if (this.depth >= MAX_DEPTH) {
      this.overflow++;
      return;
    }
    if (name === "html" && this.info.lang === undefined) {
      for (let i = 0; i < attrs.length; i += 2) if (attrs[i] === "lang") this.info.lang = attrs[i + 1];
    }
    const el = new El(name, attrs, parent);
    el.hints = this.pendingHints;
    if (hidden || flags & DROPPED) el.skip = true;
    else {
      parent.children.push(el);
      if (this.anchors && name === "a") {
        for (let i = 0; i < attrs.length; i += 2) if (attrs[i] === "href") this.info.anchors.push(attrs[i + 1]!);
      }
    }
    if (name === "title" && this.foreign === 0 && this.info.title === undefined) this.inTitle = true;
    else if (name === "script" && isJsonLd(attrs)) {
      this.inJsonLd = true;
      this.info.jsonLd.push("");
    }
    if (flags & FOREIGN) this.foreign++;
    if (flags & PREFORMATTED) this.preformatted++;
    this.cur = el;
    this.depth++;
    this.masks[this.depth] = this.masks[this.depth - 1]! | nameBit(name);
    this.flags[this.depth] = flags;
    if (selfClosing && this.foreign > 0) this.pop();
  }

  /** Whether an element of this name is on the open chain (a bit test, then a bounded walk). */
  private isOpen(name: string): boolean {
    if ((this.masks[this.depth]! & nameBit(name)) === 0) return false;
    for (let el: El | null = this.cur; el !== null && el.parent !== null; el = el.parent) if (el.tag === name) return true;
    return false;
  }

  private pop(): void {
    const el = this.cur;
    const parent = el.parent;
    if (parent === null) return;
    if (el.children.length > 0) el.children = el.children.slice();
    const flags = this.flags[this.depth]!;
    if (flags & FOREIGN) this.foreign--;
    if (flags & PREFORMATTED) this.preformatted--;
    if (el.tag === "title" && this.inTitle) {
      this.inTitle = false;
      this.info.title ??= "";
    }
    if (el.tag === "script") this.inJsonLd = false;
    this.cur = parent;
    this.depth--;
  }
}

function isJsonLd(attrs: string[]): boolean {
  for (let i = 0; i < attrs.length; i += 2) if (attrs[i] === "type") return attrs[i + 1]!.trim().toLowerCase() === "application/ld+json";
  return false;
}

function nameBit(name: string): number {
  return 1 << ((name.charCodeAt(0) + name.length * 7) & 31);
}

/** Commas in a text run (ASCII and full-width), a signal of prose for main-content scoring. */
export function countCommas(text: string): number {
  let count = 0;
  for (let i = text.indexOf(","); i !== -1; i = text.indexOf(",", i + 1)) count++;
  for (let i = text.indexOf("\uFF0C"); i !== -1; i = text.indexOf("\uFF0C", i + 1)) count++;
  return count;
}

function baseHref(attrs: string[]): string | undefined {
  for (let i = 0; i < attrs.length; i += 2) if (attrs[i] === "href") return attrs[i + 1];
  return undefined;
}

/** Parses a whole page. Never throws on malformed input; nesting is capped, so later passes may recurse. */
export function parseHtml(html: string, options: ParseOptions = {}): ParsedPage {
  const builder = new TreeBuilder(html, options);
  const tokenizer = new FastTokenizer({ decodeEntities: false }, builder);
  tokenizer.write(html);
  tokenizer.end();
  spareTables = { masks: builder.masks, flags: builder.flags };
  return { root: builder.root, info: builder.info };
}
