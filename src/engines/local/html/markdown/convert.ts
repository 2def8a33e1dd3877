import { collapseSpace, textContent, type El, type Node } from "../dom.js";
import { largestSrcsetCandidate, type UrlResolver } from "../urls.js";
import { escapeAlt, escapeDestination, escapeTitle } from "./escape.js";
import { renderTable } from "./table.js";
import { MarkdownWriter } from "./writer.js";

export interface MarkdownContext {
  urls: UrlResolver;
  removeBase64Images: boolean;
}

/** How each element renders; elements not listed render their children inline. */
const enum Kind {
  Inline, Block, Skipped, Strong, Emphasis, Strike, Link, Image, Break, Code, Pre, List, Item, Quote, Table, Rule, Heading,
}

const KINDS = new Map<string, Kind>();
for (const tag of [
  "#root", "html", "body", "p", "div", "section", "article", "main", "header", "footer", "nav", "aside", "address",
  "figure", "figcaption", "details", "summary", "dl", "dt", "dd", "form", "fieldset", "legend", "center", "hgroup",
  "search", "caption", "tr", "td", "th", "tbody", "thead", "tfoot", "dialog", "menu", "frameset", "frame",
]) KINDS.set(tag, Kind.Block);
for (const tag of [
  "head", "script", "style", "template", "select", "option", "input", "iframe", "video", "audio", "canvas", "object",
  "embed", "map", "area", "svg", "noscript", "source", "track", "datalist", "meta", "link",
]) KINDS.set(tag, Kind.Skipped);
for (const [tag, kind] of [
  ["strong", Kind.Strong], ["b", Kind.Strong], ["em", Kind.Emphasis], ["i", Kind.Emphasis], ["del", Kind.Strike],
  ["s", Kind.Strike], ["strike", Kind.Strike], ["a", Kind.Link], ["img", Kind.Image], ["br", Kind.Break],
  ["code", Kind.Code], ["kbd", Kind.Code], ["samp", Kind.Code], ["tt", Kind.Code], ["pre", Kind.Pre], ["ul", Kind.List],
  ["ol", Kind.List], ["li", Kind.Item], ["blockquote", Kind.Quote], ["table", Kind.Table], ["hr", Kind.Rule],
  ["h1", Kind.Heading], ["h2", Kind.Heading], ["h3", Kind.Heading], ["h4", Kind.Heading], ["h5", Kind.Heading], ["h6", Kind.Heading],
] as const) KINDS.set(tag, kind);

/** GitHub-flavoured markdown for a (cleaned) tree. */
export function toMarkdown(root: El, context: MarkdownContext): string {
  const writer = new MarkdownWriter();
  new Converter(context).children(root, writer);
  return writer.finish();
}

class Converter {
  private listDepth = 0;
  private readonly renderChildren = (el: El, writer: MarkdownWriter): void => this.children(el, writer);

  constructor(private readonly context: MarkdownContext) {}

  children(el: El, writer: MarkdownWriter): void {
    for (const child of el.children) this.node(child, writer);
  }

  private node(node: Node, writer: MarkdownWriter): void {
    if (typeof node === "string") {
      writer.text(node);
      return;
    }
    switch (KINDS.get(node.tag) ?? Kind.Inline) {
      case Kind.Inline: return this.children(node, writer);
      case Kind.Block: return this.block(node, writer);
      case Kind.Skipped: return;
      case Kind.Strong: return this.emphasis(node, writer, "**");
      case Kind.Emphasis: return this.emphasis(node, writer, "*");
      case Kind.Strike: return this.emphasis(node, writer, "~~");
      case Kind.Link: return this.link(node, writer);
      case Kind.Image: return this.image(node, writer);
      case Kind.Break: return writer.br();
      case Kind.Code: return this.inlineCode(node, writer);
      case Kind.Pre: return this.codeBlock(node, writer);
      case Kind.List: return this.list(node, writer);
      case Kind.Item: return this.item(node, writer, "- ", true);
      case Kind.Quote: return this.blockquote(node, writer);
      case Kind.Heading: return this.heading(node, writer, node.tag.charCodeAt(1) - 48);
      case Kind.Table:
        if (!writer.singleLine && renderTable(node, writer, this.renderChildren)) return;
        return this.block(node, writer);
      case Kind.Rule:
        if (writer.singleLine) return;
        writer.block(2);
        writer.literal("---");
        writer.block(2);
        return;
    }
  }

  private emphasis(el: El, writer: MarkdownWriter, delimiter: string): void {
    writer.openEmphasis(delimiter);
    this.children(el, writer);
    writer.closeMark();
  }

  private block(el: El, writer: MarkdownWriter): void {
    writer.block(2);
    this.children(el, writer);
    writer.block(2);
  }

  private heading(el: El, writer: MarkdownWriter, level: number): void {
    if (writer.inLink || writer.singleLine) return this.block(el, writer);
    writer.block(2);
    writer.openMark("######".slice(0, level) + " ");
    writer.beginInline();
    this.children(el, writer);
    writer.endInline();
    writer.closeMark("");
    writer.block(2);
  }

  private blockquote(el: El, writer: MarkdownWriter): void {
    writer.block(2);
    const previous = writer.indent("> ");
    this.children(el, writer);
    writer.restore(previous);
    writer.block(2);
  }

  private list(el: El, writer: MarkdownWriter): void {
    const ordered = el.tag === "ol";
    let number = ordered ? Number.parseInt(el.attr("start") ?? "1", 10) : 0;
    if (!Number.isFinite(number)) number = 1;
    writer.block(this.listDepth > 0 ? 1 : 2);
    this.listDepth++;
    let first = true;
    let indent = "  ";
    for (const child of el.children) {
      if (typeof child === "string") {
        writer.text(child);
      } else if (child.tag === "li") {
        const marker = ordered ? `${number++}. ` : "- ";
        indent = " ".repeat(marker.length);
        this.item(child, writer, marker, first);
        first = false;
      } else if (child.tag === "ul" || child.tag === "ol") {
        // A list directly inside a list belongs to the item before it.
        const previous = writer.indent(first ? "" : indent);
        this.list(child, writer);
        writer.restore(previous);
      } else {
        this.node(child, writer);
      }
    }
    this.listDepth--;
    writer.block(this.listDepth > 0 ? 1 : 2);
  }

  private item(el: El, writer: MarkdownWriter, marker: string, first: boolean): void {
    const previous = writer.startItem(marker, first);
    this.children(el, writer);
    writer.endItem(previous);
  }

  private codeBlock(el: El, writer: MarkdownWriter): void {
    const code = textContent(el).replace(/\r\n?/g, "\n").replace(/^\n/, "").trimEnd();
    if (code.trim() === "") return;
    if (writer.singleLine) return writer.literal(inlineCode(collapseSpace(code), true));
    let fence = "```";
    while (code.includes(fence)) fence += "`";
    const lines = [fence + (languageOf(el) ?? firstCodeLanguage(el) ?? "")];
    for (const line of code.split("\n")) lines.push(line.trimEnd());
    lines.push(fence);
    writer.block(2);
    writer.lines(lines);
    writer.block(2);
  }

  private inlineCode(el: El, writer: MarkdownWriter): void {
    const code = collapseSpace(textContent(el));
    if (code === "") return;
    writer.literal(inlineCode(code, writer.singleLine));
  }

  private link(el: El, writer: MarkdownWriter): void {
    const href = el.attr("href")?.trim();
    if (href === undefined || href === "" || writer.inLink || /^javascript:/i.test(href)) return this.children(el, writer);
    if (href.startsWith("#") && /^skip to content$/i.test(collapseSpace(textContent(el)))) return;
    const url = this.context.urls.resolve(href) ?? href;
    const title = el.attr("title")?.trim();
    writer.openLink();
    this.children(el, writer);
    writer.closeLink(`](${escapeDestination(url)}${title ? ` "${escapeTitle(collapseSpace(title))}"` : ""})`);
  }

  private image(el: El, writer: MarkdownWriter): void {
    let src = el.attr("src")?.trim();
    const srcset = el.attr("srcset");
    if (srcset !== undefined) src = largestSrcsetCandidate(srcset, src) ?? src;
    // Lazy-loaded images keep the real URL in a data attribute and a placeholder (or nothing) in src.
    if (src === undefined || src === "" || src.startsWith("data:")) {
      const lazy = (el.attr("data-src") ?? el.attr("data-lazy-src") ?? el.attr("data-original"))?.trim();
      if (lazy) src = lazy;
    }
    if (src === undefined || src === "") return;
    let url = this.context.urls.resolve(src) ?? src;
    if (this.context.removeBase64Images && /^data:image\/[^;,]*;base64,/i.test(url)) url = "<Base64-Image-Removed>";
    else url = escapeDestination(url);
    const alt = escapeAlt(collapseSpace(el.attr("alt") ?? ""));
    const title = el.attr("title")?.trim();
    writer.literal(`![${alt}](${url}${title ? ` "${escapeTitle(collapseSpace(title))}"` : ""})`);
  }
}

function inlineCode(code: string, inTable: boolean): string {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < code.length; i++) {
    if (code.charCodeAt(i) === 96) longest = Math.max(longest, ++run);
    else run = 0;
  }
  const fence = "`".repeat(longest + 1);
  const pad = code.startsWith("`") || code.endsWith("`") ? " " : "";
  const body = inTable ? code.replace(/\|/g, "\\|") : code;
  return fence + pad + body + pad + fence;
}

/** `language-x` or `lang-x` in the class attribute. */
function languageOf(el: El): string | undefined {
  const cls = el.attr("class");
  if (cls === undefined) return undefined;
  for (const token of cls.split(/\s+/)) {
    if (token.startsWith("language-") && token.length > 9) return token.slice(9);
    if (token.startsWith("lang-") && token.length > 5) return token.slice(5);
  }
  return undefined;
}

function firstCodeLanguage(el: El): string | undefined {
  for (const child of el.children) {
    if (typeof child !== "string" && child.tag === "code") return languageOf(child);
  }
  return undefined;
}
