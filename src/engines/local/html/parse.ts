import { decodeHTMLAttribute } from "entities";
import type { TokenizerCallbacks } from "htmlparser2";
import { El, NO_ATTRS } from "./dom.js";
import { readName } from "./names.js";
import { FastTokenizer } from "./tokenizer.js";

/** What the document's head (and stray `<meta>`s) says, collected while parsing. */
export interface PageInfo {
  title?: string;
  lang?: string;
  baseHref?: string;
  /** Attribute lists of every `<meta>` and `<link>`, in document order. */
  metas: string[][];
  links: string[][];
}

export interface ParsedPage {
  root: El;
  info: PageInfo;
}

const VOID = new Set(["area", "base", "basefont", "br", "col", "command", "embed", "frame", "hr", "img", "input", "isindex", "keygen", "link", "meta", "param", "source", "track", "wbr"]);
/** Elements whose content never reaches the outputs. */
const DROPPED = new Set(["head", "script", "style", "noscript", "template", "title", "frameset", "noframes"]);
/** Elements that may stay inside `<head>`; any other element closes it, as in a browser. */
const HEAD_CONTENT = new Set(["title", "meta", "link", "base", "script", "style", "noscript", "template"]);
/** Elements whose children are dropped (their internals carry no text for a reader). */
const OPAQUE = new Set(["svg", "canvas", "iframe", "object", "video", "audio"]);
const FOREIGN = new Set(["svg", "math"]);

const P = ["p"];
const HEADINGS = ["h1", "h2", "h3", "h4", "h5", "h6", "p"];
const FORM = ["input", "option", "optgroup", "select", "button", "datalist", "textarea"];
/** An opening tag closes these open elements first (htmlparser2's rules, a subset of the HTML spec's). */
const IMPLIES_CLOSE = new Map<string, Set<string>>(
  Object.entries({
    tr: ["tr", "th", "td"], th: ["th"], td: ["thead", "th", "td"], body: ["head", "link", "script"], a: ["a"], li: ["li"],
    p: P, h1: HEADINGS, h2: HEADINGS, h3: HEADINGS, h4: HEADINGS, h5: HEADINGS, h6: HEADINGS,
    select: FORM, input: FORM, output: FORM, button: FORM, datalist: FORM, textarea: FORM,
    option: ["option"], optgroup: ["optgroup", "option"], dd: ["dd", "dt"], dt: ["dd", "dt"],
    address: P, article: P, aside: P, blockquote: P, details: P, div: P, dl: P, fieldset: P, figcaption: P, figure: P,
    footer: P, form: P, header: P, hr: P, main: P, nav: P, ol: P, pre: P, section: P, table: P, ul: P,
    rt: ["rt", "rp"], rp: ["rt", "rp"], tbody: ["thead", "tbody"], tfoot: ["thead", "tbody"],
  }).map(([tag, closes]) => [tag, new Set(closes)]),
);

/** Nesting deeper than this is flattened: it only occurs in broken or hostile markup. */
const MAX_DEPTH = 256;

/** Builds the compact tree from htmlparser2's tokenizer events, in one pass, without decoding entities. */
class TreeBuilder implements TokenizerCallbacks {
  readonly root = new El("#root", NO_ATTRS, null);
  readonly info: PageInfo = { metas: [], links: [] };
  private cur = this.root;
  private depth = 0;
  private overflow = 0;
  private foreign = 0;
  private inTitle = false;
  /** For each depth, a bit per tag-name bucket present on the open-element chain (cheap "is it open?" check). */
  private readonly masks = new Int32Array(MAX_DEPTH + 2);
  private tag = "";
  private attrs: string[] = NO_ATTRS;
  private attrName = "";
  private attrValue = "";

  constructor(private readonly html: string) {}

  isInForeignContext(): boolean {
    return this.foreign > 0;
  }

  onopentagname(start: number, end: number): void {
    const name = readName(this.html, start, end);
    this.tag = name === "image" && this.foreign === 0 ? "img" : name;
    this.attrs = NO_ATTRS;
  }

  onattribname(start: number, end: number): void {
    this.attrName = readName(this.html, start, end);
    this.attrValue = "";
  }

  onattribdata(start: number, end: number): void {
    this.attrValue += this.html.slice(start, end);
  }

  onattribentity(): void {}

  onattribend(): void {
    const name = this.attrName;
    let attrs = this.attrs;
    if (attrs === NO_ATTRS) attrs = this.attrs = [];
    else for (let i = 0; i < attrs.length; i += 2) if (attrs[i] === name) return;
    const value = this.attrValue;
    attrs.push(name, value.indexOf("&") === -1 ? value : decodeHTMLAttribute(value));
  }

  onopentagend(): void {
    this.openElement(false);
  }

  onselfclosingtag(): void {
    this.openElement(true);
  }

  onclosetag(start: number, end: number): void {
    const name = readName(this.html, start, end);
    if (VOID.has(name)) {
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
      return;
    }
    const children = cur.children;
    const last = children.length - 1;
    const text = html.slice(start, end);
    // Text statistics for main-content scoring, taken while these characters are still in cache.
    let from = start;
    let to = end;
    while (from < to && html.charCodeAt(from) <= 32) from++;
    while (to > from && html.charCodeAt(to - 1) <= 32) to--;
    if (to > from) {
      cur.ownText += to - from;
      cur.ownCommas += countCommas(text);
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
    const attrs = this.attrs;
    this.attrs = NO_ATTRS;
    if (this.cur.tag === "head" && !HEAD_CONTENT.has(name)) this.pop();
    const closes = IMPLIES_CLOSE.get(name);
    if (closes !== undefined) while (closes.has(this.cur.tag)) this.pop();
    const parent = this.cur;
    if (VOID.has(name)) {
      if (name === "meta") this.info.metas.push(attrs);
      else if (name === "link") this.info.links.push(attrs);
      else if (name === "base") this.info.baseHref ??= attrs.length > 0 ? baseHref(attrs) : undefined;
      else if (!parent.skip && !OPAQUE.has(parent.tag)) parent.children.push(new El(name, attrs, parent));
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
    if (parent.skip || DROPPED.has(name) || OPAQUE.has(parent.tag)) el.skip = true;
    else parent.children.push(el);
    if (name === "title" && this.foreign === 0 && this.info.title === undefined) {
      this.inTitle = true;
    }
    if (FOREIGN.has(name)) this.foreign++;
    this.cur = el;
    this.masks[this.depth + 1] = this.masks[this.depth]! | nameBit(name);
    this.depth++;
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
    if (FOREIGN.has(el.tag)) this.foreign--;
    if (el.tag === "title" && this.inTitle) {
      this.inTitle = false;
      this.info.title ??= "";
    }
    this.cur = parent;
    this.depth--;
  }
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
export function parseHtml(html: string): ParsedPage {
  const builder = new TreeBuilder(html);
  const tokenizer = new FastTokenizer({ decodeEntities: false }, builder);
  tokenizer.write(html);
  tokenizer.end();
  return { root: builder.root, info: builder.info };
}
