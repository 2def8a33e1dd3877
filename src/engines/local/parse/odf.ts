import { ScrapelineError } from "../../../core/index.js";
import { clean, isoDate, type Converted } from "./converted.js";
import type { ParseLimits } from "./limits.js";
import { entryText, readZip } from "./zip.js";
import { escapeHtml, find, findAll, isEl, parseXml, textOf, type XmlEl, type XmlNode } from "./xml.js";

/**
 * ODT and ODP (OpenDocument) to HTML: content.xml walked by hand — headings, paragraphs, lists,
 * tables, links, images (as references to the package path), footnotes and endnotes, bold and
 * italic from the automatic styles; an ODP's slides each under an `<h2>` (its title, else
 * "Slide N"). Title, author and date come from meta.xml.
 */
export function odfToHtml(bytes: Uint8Array, format: "odt" | "odp", limits: ParseLimits, label: string): Converted {
  const entries = readZip(bytes, limits, label, (name) => name === "content.xml" || name === "meta.xml" || name === "META-INF/manifest.xml");
  if (entryText(entries, "META-INF/manifest.xml")?.includes("encryption-data")) {
    throw new ScrapelineError("bad-content", `${label} is password-protected (encrypted); remove the password and parse it again`);
  }
  const content = entryText(entries, "content.xml");
  if (!content) throw new ScrapelineError("bad-content", `${label} has no content.xml: not a complete OpenDocument file`);
  const root = parseXml(content);
  const writer = new OdfWriter(root);
  const body = find(root, "office:body") ?? root;
  let html: string;
  let pages: number | undefined;
  if (format === "odp") {
    const slides = findAll(body, "draw:page");
    pages = slides.length;
    html = slides.map((slide, i) => writer.slide(slide, i + 1)).join("\n");
  } else {
    html = writer.children(find(body, "office:text") ?? body);
  }
  const out: Converted = { html: html + writer.notes(), warnings: [], ...(pages !== undefined ? { pages } : {}) };
  const meta = entryText(entries, "meta.xml");
  if (meta) {
    const m = parseXml(meta);
    const value = (...names: string[]) => {
      const el = find(m, ...names);
      return el ? clean(textOf(el)) : undefined;
    };
    const title = value("dc:title");
    const author = value("dc:creator") ?? value("meta:initial-creator");
    const modified = isoDate(value("dc:date"));
    if (title) out.title = title;
    if (author) out.author = author;
    if (modified) out.modifiedTime = modified;
  }
  return out;
}

class OdfWriter {
  private readonly bold = new Set<string>();
  private readonly italic = new Set<string>();
  private readonly footnotes: string[] = [];

  constructor(root: XmlEl) {
    for (const style of findAll(root, "style:style")) {
      const text = find(style, "style:text-properties");
      const name = style.attrs["style:name"];
      if (!text || !name) continue;
      if (text.attrs["fo:font-weight"] === "bold") this.bold.add(name);
      if (text.attrs["fo:font-style"] === "italic") this.italic.add(name);
    }
  }

  slide(page: XmlEl, number: number): string {
    const frames = page.children.filter(isEl).filter((el) => el.name === "draw:frame" || el.name === "draw:custom-shape");
    const titleFrame = frames.find((f) => f.attrs["presentation:class"] === "title");
    const title = titleFrame ? clean(textOf(titleFrame)) : undefined;
    const rest = frames.filter((f) => f !== titleFrame).map((f) => this.children(f)).join("\n");
    return `<section><h2>${escapeHtml(title ?? `Slide ${number}`)}</h2>\n${rest}</section>`;
  }

  children(el: XmlEl): string {
    return el.children.map((child) => this.node(child)).join("");
  }

  notes(): string {
    if (this.footnotes.length === 0) return "";
    return `\n<ol>${this.footnotes.map((note, i) => `<li id="fn-${i + 1}">${note}</li>`).join("")}</ol>`;
  }

  private node(node: XmlNode): string {
    if (typeof node === "string") return escapeHtml(node);
    const inner = () => this.children(node);
    switch (node.name) {
      case "text:h": {
        const level = Math.min(6, Math.max(1, Number(node.attrs["text:outline-level"] ?? 1) || 1));
        return `<h${level}>${inner()}</h${level}>\n`;
      }
      case "text:p":
        return `<p>${this.styled(node, inner())}</p>\n`;
      case "text:span":
        return this.styled(node, inner());
      case "text:list":
        return `<ul>${inner()}</ul>\n`;
      case "text:list-item":
      case "text:list-header":
        return `<li>${inner()}</li>`;
      case "table:table":
        return `<table>${inner()}</table>\n`;
      case "table:table-header-rows":
      case "table:table-rows":
      case "table:table-row-group":
        return inner();
      case "table:table-row":
        return `<tr>${inner()}</tr>`;
      case "table:table-cell":
        return `<td>${inner()}</td>`;
      case "table:covered-table-cell":
        return "<td></td>";
      case "text:a":
        return `<a href="${escapeHtml(node.attrs["xlink:href"] ?? "")}">${inner()}</a>`;
      case "text:line-break":
        return "<br>";
      case "text:s":
        return " ".repeat(Math.min(100, Number(node.attrs["text:c"] ?? 1) || 1));
      case "text:tab":
        return " ";
      case "draw:image": {
        const frame = node;
        const alt = clean(textOf(find(frame, "svg:title") ?? find(frame, "svg:desc") ?? { name: "", attrs: {}, children: [] })) ?? "";
        const src = frame.attrs["xlink:href"];
        return src ? `<img src="${escapeHtml(src)}" alt="${escapeHtml(alt)}">` : "";
      }
      case "text:note": {
        const body = find(node, "text:note-body");
        this.footnotes.push(body ? this.children(body) : "");
        const n = this.footnotes.length;
        return `<sup><a href="#fn-${n}">[${n}]</a></sup>`;
      }
      case "office:annotation":
      case "text:tracked-changes":
      case "text:sequence-decls":
      case "office:forms":
      case "svg:title":
      case "svg:desc":
      case "presentation:notes":
        return "";
      default:
        return inner();
    }
  }

  private styled(el: XmlEl, html: string): string {
    const style = el.attrs["text:style-name"] ?? "";
    if (html.trim() === "") return html;
    let out = html;
    if (this.italic.has(style)) out = `<em>${out}</em>`;
    if (this.bold.has(style)) out = `<strong>${out}</strong>`;
    return out;
  }
}
