/**
 * Canonical (internalized) tag and attribute names. Names read from the page would be fresh
 * strings; using these constants instead makes later comparisons and Set/Map lookups pointer
 * checks, and reading a lower-case name needs no allocation at all.
 */
const TAGS = [
  "a", "abbr", "address", "area", "article", "aside", "audio", "b", "base", "bdi", "bdo", "blockquote", "body", "br",
  "button", "canvas", "caption", "center", "cite", "code", "col", "colgroup", "data", "datalist", "dd", "del", "details",
  "dfn", "dialog", "div", "dl", "dt", "em", "embed", "fieldset", "figcaption", "figure", "font", "footer", "form", "frame",
  "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hgroup", "hr", "html", "i", "iframe", "img", "input",
  "ins", "kbd", "label", "legend", "li", "link", "main", "map", "mark", "math", "menu", "meta", "meter", "nav", "noframes",
  "noscript", "object", "ol", "optgroup", "option", "output", "p", "param", "picture", "pre", "progress", "q", "rp", "rt",
  "ruby", "s", "samp", "script", "search", "section", "select", "small", "source", "span", "strike", "strong", "style",
  "sub", "summary", "sup", "svg", "table", "tbody", "td", "template", "textarea", "tfoot", "th", "thead", "time", "title",
  "tr", "track", "tt", "u", "ul", "var", "video", "wbr", "big", "image", "basefont", "command", "isindex", "keygen",
];
const ATTRIBUTES = [
  "class", "id", "href", "src", "srcset", "data-src", "alt", "title", "style", "rel", "name", "property", "content",
  "itemprop", "lang", "hidden", "aria-hidden", "aria-modal", "role", "type", "width", "height", "target", "colspan",
  "rowspan", "start", "poster", "summary", "datatable", "loading", "sizes", "dir", "charset", "http-equiv", "value",
  "aria-label", "data-ad-slot", "data-ad-client", "data-ad-unit", "data-google-query-id", "face", "color", "align",
  "data-lazy-src", "data-original", "data-sheet",
];

/** Attributes some output or pass reads; the rest only matter for the html output and CSS selectors. */
export const READ_ATTRIBUTES = new Set([
  "class", "id", "href", "src", "srcset", "data-src", "alt", "title", "style", "rel", "name", "property", "content",
  "itemprop", "lang", "hidden", "aria-hidden", "aria-modal", "role", "colspan", "rowspan", "start", "poster", "summary",
  "type", "datatable", "aria-label", "data-ad-slot", "data-ad-client", "data-ad-unit", "data-google-query-id",
  "data-lazy-src", "data-original", "data-sheet",
]);

const canonical = new Map<string, string>();
/** Known names by first character and length, for matching straight from the source text. */
const buckets: string[][] = [];
for (const name of [...TAGS, ...ATTRIBUTES]) {
  canonical.set(name, name);
  if (name.length < 32) (buckets[bucketOf(name.charCodeAt(0), name.length)] ??= []).push(name);
}

function bucketOf(first: number, length: number): number {
  return ((first & 127) << 5) | length;
}

/** The canonical copy of a lower-case name (the name itself when not a known one). */
function internName(name: string): string {
  return canonical.get(name) ?? name;
}

/** The known lower-case name written at source[start, end), without allocating; undefined otherwise. */
export function knownName(source: string, start: number, end: number): string | undefined {
  const length = end - start;
  if (length >= 32) return undefined;
  const candidates = buckets[bucketOf(source.charCodeAt(start), length)];
  if (candidates === undefined) return undefined;
  for (const name of candidates) {
    let i = 1;
    while (i < length && source.charCodeAt(start + i) === name.charCodeAt(i)) i++;
    if (i === length) return name;
  }
  return undefined;
}

/** The lower-cased name at source[start, end), as a canonical string when it is a known name. */
export function readName(source: string, start: number, end: number): string {
  return knownName(source, start, end) ?? internName(source.slice(start, end).toLowerCase());
}
