import { collapseSpace, decodeText, type El } from "../dom.js";

/** Inline elements: a class on them says less about a block than on the block itself. */
export const PHRASING = new Set(["a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "dfn", "em", "font", "i", "img", "kbd", "mark", "q", "s", "samp", "small", "span", "strong", "sub", "sup", "time", "u", "var", "wbr", "br", "big", "tt", "strike", "del", "ins", "label", "abbr", "picture", "source"]);

/** The lines of a short block's text: broken at `<br>` and at blocks, whitespace collapsed, empty ones left out. */
export function linesOf(el: El): string[] {
  const lines: string[] = [];
  let current = "";
  const walk = (node: El): void => {
    for (const child of node.children) {
      if (typeof child === "string") current += child;
      else if (child.tag === "br" || !PHRASING.has(child.tag)) {
        lines.push(current);
        current = "";
        walk(child);
        lines.push(current);
        current = "";
      } else walk(child);
    }
  };
  walk(el);
  lines.push(current);
  return lines.map((line) => collapseSpace(decodeText(line))).filter((line) => line !== "");
}
