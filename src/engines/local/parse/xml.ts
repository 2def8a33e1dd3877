import { Parser } from "htmlparser2";

/** An element of a parsed XML part: its qualified name (prefix kept), attributes and children. */
export interface XmlEl {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
}
export type XmlNode = XmlEl | string;

/**
 * Parses an XML part (content.xml, a slide, an OPF) into a plain tree. Entities beyond the five
 * predefined and numeric ones are not expanded (no entity expansion attacks), and no external
 * resource is ever read.
 */
export function parseXml(text: string): XmlEl {
  const root: XmlEl = { name: "#root", attrs: {}, children: [] };
  const stack: XmlEl[] = [root];
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        const el: XmlEl = { name, attrs, children: [] };
        stack[stack.length - 1]!.children.push(el);
        stack.push(el);
      },
      ontext(text) {
        stack[stack.length - 1]!.children.push(text);
      },
      onclosetag() {
        if (stack.length > 1) stack.pop();
      },
    },
    { xmlMode: true, decodeEntities: true, recognizeSelfClosing: true },
  );
  parser.write(text);
  parser.end();
  return root;
}

/** Local name of a qualified name (`text:p` → `p`). */
export function local(name: string): string {
  const i = name.indexOf(":");
  return i < 0 ? name : name.slice(i + 1);
}

export function isEl(node: XmlNode): node is XmlEl {
  return typeof node !== "string";
}

/** Elements under `el` (any depth, document order) whose qualified name is one of `names`. */
export function findAll(el: XmlEl, ...names: string[]): XmlEl[] {
  const out: XmlEl[] = [];
  const walk = (node: XmlEl) => {
    for (const child of node.children) {
      if (!isEl(child)) continue;
      if (names.includes(child.name)) out.push(child);
      walk(child);
    }
  };
  walk(el);
  return out;
}

export function find(el: XmlEl, ...names: string[]): XmlEl | undefined {
  for (const child of el.children) {
    if (!isEl(child)) continue;
    if (names.includes(child.name)) return child;
    const deeper = find(child, ...names);
    if (deeper) return deeper;
  }
  return undefined;
}

/** All text under a node. */
export function textOf(node: XmlNode): string {
  return typeof node === "string" ? node : node.children.map(textOf).join("");
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => HTML_ESCAPES[c]!);
}
