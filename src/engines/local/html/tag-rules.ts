/** How the tree builder treats an element, as bits (one Map lookup per element instead of many Set lookups). */
export const VOID = 1;
/** Content never reaches the outputs (head, script, style, …). */
export const DROPPED = 2;
/** May stay inside `<head>`; any other element closes it, as in a browser. */
export const HEAD_CONTENT = 4;
/** Children are dropped: their internals carry no text for a reader (svg, iframe fallback, …). */
export const OPAQUE = 8;
/** Starts foreign content (SVG, MathML), where `<x/>` closes itself. */
export const FOREIGN = 16;
/** Whitespace inside is content. */
export const PREFORMATTED = 32;
/** Opening it closes some open elements first (see impliedCloses). */
export const CLOSES = 64;

const RULES: [number, string[]][] = [
  [VOID, ["area", "base", "basefont", "br", "col", "command", "embed", "frame", "hr", "img", "input", "isindex", "keygen", "link", "meta", "param", "source", "track", "wbr"]],
  [DROPPED, ["head", "script", "style", "noscript", "template", "title", "frameset", "noframes"]],
  [HEAD_CONTENT, ["title", "meta", "link", "base", "script", "style", "noscript", "template"]],
  [OPAQUE, ["svg", "canvas", "iframe", "object", "video", "audio"]],
  [FOREIGN, ["svg", "math"]],
  [PREFORMATTED, ["pre", "textarea", "listing"]],
];

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

const FLAGS = new Map<string, number>();
for (const [bit, tags] of RULES) for (const tag of tags) FLAGS.set(tag, (FLAGS.get(tag) ?? 0) | bit);
for (const tag of IMPLIES_CLOSE.keys()) FLAGS.set(tag, (FLAGS.get(tag) ?? 0) | CLOSES);

export function tagFlags(tag: string): number {
  return FLAGS.get(tag) ?? 0;
}

/** The open elements an opening tag closes, when it is one that closes any (CLOSES flag). */
export function impliedCloses(tag: string): Set<string> | undefined {
  return IMPLIES_CLOSE.get(tag);
}
