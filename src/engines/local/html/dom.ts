import { decodeHTML } from "entities";

/** A node of the compact document tree: an element, or a text run kept as raw (still entity-encoded) HTML. */
export type Node = El | string;

/** An element. Attributes are a flat `[name, value, name, value, …]` list with decoded values. */
export class El {
  tag: string;
  attrs: string[];
  children: Node[] = [];
  parent: El | null;
  /** Built but not part of the document (script, style, svg internals, …). */
  skip = false;
  /** Length of the direct text children without edge whitespace, and their commas (set while parsing). */
  ownText = 0;
  ownCommas = 0;
  /** Class and id hint bits for main-content scoring; -1 until computed. */
  hints = -1;
  // Scratch space for the main-content pass, reset by each scoring pass.
  score = 0;
  textLen = 0;
  linkLen = 0;
  commas = 0;
  flags = 0;

  constructor(tag: string, attrs: string[], parent: El | null) {
    this.tag = tag;
    this.attrs = attrs;
    this.parent = parent;
  }

  attr(name: string): string | undefined {
    const attrs = this.attrs;
    for (let i = 0; i < attrs.length; i += 2) if (attrs[i] === name) return attrs[i + 1];
    return undefined;
  }

  setAttr(name: string, value: string): void {
    const attrs = this.attrs === NO_ATTRS ? (this.attrs = []) : this.attrs;
    for (let i = 0; i < attrs.length; i += 2) {
      if (attrs[i] === name) {
        attrs[i + 1] = value;
        return;
      }
    }
    attrs.push(name, value);
  }
}

/** Shared attribute list of elements without attributes; setAttr replaces it before writing. */
export const NO_ATTRS: string[] = [];

/** The decoded text of a raw text run. */
export function decodeText(raw: string): string {
  return raw.indexOf("&") === -1 ? raw : decodeHTML(raw);
}

/** Whether a character code is HTML whitespace (space, tab, LF, FF, CR). */
export function isSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 9 || code === 13 || code === 12;
}

/** The decoded text content of a subtree, as-is (no whitespace collapsing). */
export function textContent(node: Node): string {
  if (typeof node === "string") return decodeText(node);
  let out = "";
  const walk = (el: El): void => {
    for (const child of el.children) {
      if (typeof child === "string") out += child;
      else if (child.tag === "br") out += "\n";
      else walk(child);
    }
  };
  walk(node);
  return decodeText(out);
}

/** Whitespace collapsed and trimmed, like a browser shows inline text. */
export function collapseSpace(text: string): string {
  return text.replace(/[ \t\n\r\f]+/g, " ").trim();
}
