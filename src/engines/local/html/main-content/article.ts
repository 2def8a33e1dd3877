import { El, NO_ATTRS, type Node } from "../dom.js";
import { countCommas } from "../parse.js";
import { DROP, trimmedLength } from "./score.js";

/** Table parts make no sense outside their table: copied into the article as divs. */
const RENAMED = new Set(["td", "th", "tr", "tbody", "thead", "tfoot", "caption", "colgroup", "col"]);

/** A new root holding copies of the given elements (without what this attempt dropped) in one div. */
export function buildArticle(parts: Node[]): El {
  const root = new El("#root", NO_ATTRS, null);
  const container = new El("div", NO_ATTRS, root);
  root.children.push(container);
  for (const part of parts) {
    if (typeof part === "string") {
      container.children.push(part);
      container.ownText += trimmedLength(part);
      container.ownCommas += countCommas(part);
      continue;
    }
    const copy = copyKept(part, container);
    if (RENAMED.has(copy.tag)) copy.tag = "div";
    container.children.push(copy);
  }
  return root;
}

function copyKept(el: El, parent: El): El {
  const copy = new El(el.tag, el.attrs, parent);
  copy.flags = el.flags;
  copy.score = el.score;
  copy.ownText = el.ownText;
  copy.ownCommas = el.ownCommas;
  copy.hints = el.hints;
  // An array of the kept children's exact length: pushed one by one, each array would grow to
  // room for 17 (most elements have one to three children), the larger part of the copy's bytes.
  const from = el.children;
  let kept = 0;
  for (const child of from) if (typeof child === "string" || !(child.flags & DROP)) kept++;
  const children: Node[] = (copy.children = new Array<Node>(kept));
  let at = 0;
  for (const child of from) {
    if (typeof child === "string") children[at++] = child;
    else if (!(child.flags & DROP)) children[at++] = copyKept(child, copy);
  }
  return copy;
}

/** The page's own landmarks at its top level: the site's header, menu, sidebar and footer. */
const PAGE_LANDMARKS = new Set(["header", "nav", "aside", "footer"]);

/** The whole document as the article (minus what this attempt dropped, and the site's header, menu and footer). */
export function wholeBody(root: El): El {
  const body = findBody(root) ?? root;
  return buildArticle(body.children.filter((child) => typeof child === "string" || !(child.flags & DROP || PAGE_LANDMARKS.has(child.tag))));
}

export function findBody(root: El): El | undefined {
  for (const child of root.children) {
    if (typeof child === "string") continue;
    if (child.tag === "body") return child;
    if (child.tag === "html") return findBody(child);
  }
  return undefined;
}
