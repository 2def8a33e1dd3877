import type { El } from "./dom.js";
import { largestSrcsetCandidate, type UrlResolver } from "./urls.js";

const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr", "param", "keygen", "command", "basefont", "frame", "isindex"]);

/**
 * HTML for a cleaned tree. Text is written as it came (it was never decoded); attribute values are
 * escaped; `a[href]` and `img[src]` are absolute, and an img with a srcset gets its largest candidate as src.
 */
export function serializeHtml(root: El, urls: UrlResolver): string {
  const parts: string[] = [];
  const walk = (el: El): void => {
    for (const child of el.children) {
      if (typeof child === "string") {
        parts.push(child);
        continue;
      }
      const tag = child.tag;
      let open = "<" + tag;
      const attrs = child.attrs;
      let src: string | undefined;
      if (tag === "img") {
        const srcset = child.attr("srcset");
        src = srcset !== undefined ? largestSrcsetCandidate(srcset, child.attr("src")) ?? child.attr("src") : child.attr("src");
        if (src !== undefined) src = urls.resolve(src) ?? src;
      }
      for (let i = 0; i < attrs.length; i += 2) {
        const name = attrs[i]!;
        let value = attrs[i + 1]!;
        if (tag === "img" && name === "src") continue;
        if (tag === "a" && name === "href" && value.trim() !== "") value = urls.resolve(value) ?? value;
        open += " " + name + '="' + escapeAttribute(value) + '"';
      }
      if (src !== undefined) open += ' src="' + escapeAttribute(src) + '"';
      parts.push(open + ">");
      if (VOID.has(tag)) continue;
      walk(child);
      parts.push("</" + tag + ">");
    }
  };
  walk(root);
  return parts.join("");
}

function escapeAttribute(value: string): string {
  if (value.indexOf("&") === -1 && value.indexOf('"') === -1) return value;
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
}
