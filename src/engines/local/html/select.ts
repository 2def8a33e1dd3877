import { compile, type Options } from "css-select";
import { El, NO_ATTRS, textContent, type Node } from "./dom.js";

type Adapter = NonNullable<Options<Node, El>["adapter"]>;

/** css-select over the compact tree. Text nodes are plain strings, so only elements have parents. */
const adapter: Adapter = {
  isTag: (node): node is El => typeof node !== "string",
  getAttributeValue: (el, name) => el.attr(name),
  hasAttrib: (el, name) => el.attr(name) !== undefined,
  getChildren: (node) => (typeof node === "string" ? [] : node.children),
  getName: (el) => el.tag,
  getParent: (el) => (el.parent === null || el.parent.tag === "#root" ? null : el.parent),
  getSiblings: (node) => (typeof node === "string" || node.parent === null ? [node] : node.parent.children),
  getText: (node) => textContent(node),
  removeSubsets: (nodes) => {
    const set = new Set(nodes);
    return [...set].filter((node) => {
      for (let parent = typeof node === "string" ? null : node.parent; parent !== null; parent = parent.parent) {
        if (set.has(parent)) return false;
      }
      return true;
    });
  },
};

type Matcher = (el: El) => boolean;

/** Compiled selectors; an unparsable selector matches nothing rather than failing the page. */
function compileAll(selectors: string[]): Matcher[] {
  const out: Matcher[] = [];
  for (const selector of selectors) {
    if (selector.trim() === "") continue;
    try {
      const query = compile<Node, El>(selector, { adapter });
      out.push((el) => query(el));
    } catch {
      // Ignored: the other selectors still apply.
    }
  }
  return out;
}

/** A new root holding copies of the elements matching each selector, selector by selector, in document order. */
export function keepOnly(root: El, selectors: string[]): El {
  const out = new El("#root", NO_ATTRS, null);
  const body = new El("div", NO_ATTRS, out);
  out.children.push(body);
  for (const matches of compileAll(selectors)) {
    const walk = (el: El): void => {
      for (const child of el.children) {
        if (typeof child === "string") continue;
        if (matches(child)) body.children.push(cloneTree(child, body));
        walk(child);
      }
    };
    walk(root);
  }
  return out;
}

/** Removes every element matching any of the selectors. */
export function removeMatching(root: El, selectors: string[]): void {
  const matchers = compileAll(selectors);
  if (matchers.length === 0) return;
  const walk = (el: El): void => {
    const children = el.children;
    let kept = 0;
    for (let i = 0; i < children.length; i++) {
      const child = children[i]!;
      if (typeof child !== "string") {
        if (matchers.some((matches) => matches(child))) continue;
        walk(child);
      }
      children[kept++] = child;
    }
    if (kept !== children.length) children.length = kept;
  };
  walk(root);
}

export function cloneTree(el: El, parent: El | null): El {
  const copy = new El(el.tag, el.attrs === NO_ATTRS ? NO_ATTRS : el.attrs.slice(), parent);
  for (const child of el.children) copy.children.push(typeof child === "string" ? child : cloneTree(child, copy));
  return copy;
}

/**
 * Elements under `scope` matching a CSS selector, in document order. An unparsable selector is
 * an error here: a user wrote it on a schema and should hear about it.
 */
export function selectAll(scope: El, selector: string): El[] {
  const query = compile<Node, El>(selector, { adapter });
  const out: El[] = [];
  const walk = (el: El): void => {
    for (const child of el.children) {
      if (typeof child === "string") continue;
      if (query(child)) out.push(child);
      walk(child);
    }
  };
  walk(scope);
  return out;
}
