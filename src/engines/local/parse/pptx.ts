import { posix } from "node:path";
import { ScrapelineError } from "../../../core/index.js";
import type { Converted } from "./converted.js";
import { coreProperties } from "./docx.js";
import type { ParseLimits } from "./limits.js";
import { entryText, readZip, type ZipEntries } from "./zip.js";
import { clean } from "./converted.js";
import { escapeHtml, find, findAll, isEl, parseXml, textOf, type XmlEl } from "./xml.js";

/**
 * PPTX/PPTM to HTML: the slides in presentation order, each under an `<h2>` (its title
 * placeholder, else "Slide N"), its other text boxes as paragraphs and bulleted lists, tables,
 * links and pictures (as references to the package path, with their description as alt text).
 */
export function pptxToHtml(bytes: Uint8Array, limits: ParseLimits, label: string): Converted {
  const entries = readZip(bytes, limits, label, (name) => name.endsWith(".xml") || name.endsWith(".rels"));
  const presentation = entryText(entries, "ppt/presentation.xml");
  if (!presentation) throw new ScrapelineError("bad-content", `${label} has no ppt/presentation.xml: not a complete PowerPoint file`);
  const rels = relationships(entries, "ppt/_rels/presentation.xml.rels", "ppt");
  const ids = findAll(parseXml(presentation), "p:sldId").map((s) => s.attrs["r:id"] ?? "");
  const slides = ids.map((id) => rels.get(id)).filter((path): path is string => path !== undefined);
  const html = slides.map((path, i) => slideHtml(entries, path, i + 1)).join("\n");
  return { html, pages: slides.length, warnings: [], ...coreProperties(entryText(entries, "docProps/core.xml")) };
}

/** Relationship id → package path (or the external URL) from a .rels part. */
function relationships(entries: ZipEntries, relsPath: string, baseDir: string): Map<string, string> {
  const map = new Map<string, string>();
  const text = entryText(entries, relsPath);
  if (!text) return map;
  for (const rel of findAll(parseXml(text), "Relationship")) {
    const target = rel.attrs.Target ?? "";
    map.set(rel.attrs.Id ?? "", rel.attrs.TargetMode === "External" ? target : posix.normalize(posix.join(baseDir, target)));
  }
  return map;
}

function slideHtml(entries: ZipEntries, path: string, number: number): string {
  const xml = entryText(entries, path);
  if (!xml) return `<section><h2>Slide ${number}</h2></section>`;
  const rels = relationships(entries, posix.join(posix.dirname(path), "_rels", `${posix.basename(path)}.rels`), posix.dirname(path));
  const tree = find(parseXml(xml), "p:spTree");
  let title: string | undefined;
  const parts: string[] = [];
  for (const shape of tree ? tree.children.filter(isEl) : []) {
    const placeholder = find(shape, "p:ph")?.attrs.type;
    if (shape.name === "p:sp" && (placeholder === "title" || placeholder === "ctrTitle") && title === undefined) {
      title = clean(textOf(find(shape, "p:txBody") ?? shape));
      continue;
    }
    parts.push(shapeHtml(shape, rels, placeholder === "body" || placeholder === undefined));
  }
  return `<section><h2>${escapeHtml(title ?? `Slide ${number}`)}</h2>\n${parts.join("\n")}</section>`;
}

function shapeHtml(shape: XmlEl, rels: Map<string, string>, bullets: boolean): string {
  if (shape.name === "p:pic") {
    const description = find(shape, "p:cNvPr")?.attrs.descr ?? "";
    const src = rels.get(find(shape, "a:blip")?.attrs["r:embed"] ?? "");
    return src ? `<p><img src="${escapeHtml(src)}" alt="${escapeHtml(description)}"></p>` : "";
  }
  if (shape.name === "p:graphicFrame") {
    const table = find(shape, "a:tbl");
    if (!table) return "";
    const rows = findAll(table, "a:tr").map((tr, r) => `<tr>${findAll(tr, "a:tc").map((tc) => (r === 0 ? `<th>${paragraphs(tc, rels, false)}</th>` : `<td>${paragraphs(tc, rels, false)}</td>`)).join("")}</tr>`);
    return `<table>${rows.join("")}</table>`;
  }
  if (shape.name === "p:grpSp") return shape.children.filter(isEl).map((child) => shapeHtml(child, rels, bullets)).join("\n");
  const body = find(shape, "p:txBody");
  return body ? paragraphs(body, rels, bullets) : "";
}

/** The a:p paragraphs of a text body: a list when more than one is a bullet, else paragraphs. */
function paragraphs(body: XmlEl, rels: Map<string, string>, bullets: boolean): string {
  const items = findAll(body, "a:p").map((p) => runs(p, rels)).filter((text) => text.trim() !== "");
  if (items.length === 0) return "";
  if (bullets && items.length > 1) return `<ul>${items.map((t) => `<li>${t}</li>`).join("")}</ul>`;
  return items.map((t) => `<p>${t}</p>`).join("");
}

function runs(paragraph: XmlEl, rels: Map<string, string>): string {
  let out = "";
  for (const child of paragraph.children.filter(isEl)) {
    if (child.name === "a:br") out += "<br>";
    else if (child.name === "a:r" || child.name === "a:fld") {
      let text = escapeHtml(textOf(find(child, "a:t") ?? child));
      const props = find(child, "a:rPr");
      if (props?.attrs.i === "1") text = `<em>${text}</em>`;
      if (props?.attrs.b === "1") text = `<strong>${text}</strong>`;
      const link = rels.get(find(child, "a:hlinkClick")?.attrs["r:id"] ?? "");
      out += link ? `<a href="${escapeHtml(link)}">${text}</a>` : text;
    }
  }
  return out;
}
