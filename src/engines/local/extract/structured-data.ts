import { collapseSpace, El, textContent } from "../html/dom.js";
import type { PageInfo } from "../html/parse.js";

/**
 * A structured-data item of a page: a JSON-LD object, a microdata or RDFa-lite scope. Properties
 * keep their names; `@type` is always a list of bare type names (schema.org URLs shortened).
 */
export type Item = { "@type": string[] } & Record<string, unknown>;

/** Everything a page states about itself in machine-readable form, in document order. */
export interface StructuredData {
  /** Top-level items (JSON-LD first, then microdata and RDFa), with nested items left in place. */
  items: Item[];
  /** Every item, nested ones included, depth first: where typed lists (offers, reviews) are found. */
  all: Item[];
  /** OpenGraph and other meta tags by lower-case name (og:title, product:price:amount, twitter:title…). */
  meta: Record<string, string>;
  /** JSON-LD blocks that did not parse. */
  problems: string[];
}

const JSON_LD = /<script\b[^>]*\btype\s*=\s*["']?application\/ld\+json["']?[^>]*>([\s\S]*?)<\/script\s*>/gi;

export function readStructuredData(rawHtml: string, root: El, info: PageInfo, pageUrl: string): StructuredData {
  const items: Item[] = [];
  const problems: string[] = [];
  for (const match of rawHtml.matchAll(JSON_LD)) {
    const text = match[1]!.trim().replace(/^<!--/, "").replace(/-->$/, "").trim();
    if (!text) continue;
    try {
      for (const item of jsonLdItems(JSON.parse(text))) items.push(item);
    } catch (error) {
      problems.push(`a JSON-LD block does not parse: ${(error as Error).message}`);
    }
  }
  collectScopes(root, items, baseOf(info, pageUrl));
  const all: Item[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (isItem(value)) {
      all.push(value);
      for (const [key, v] of Object.entries(value)) if (key !== "@type") visit(v);
    }
  };
  items.forEach(visit);
  return { items, all, meta: metaTags(info), problems };
}

export function isItem(value: unknown): value is Item {
  return typeof value === "object" && value !== null && !Array.isArray(value) && Array.isArray((value as Item)["@type"]);
}

/** JSON-LD → items: arrays and @graph flattened, every object given a @type list. */
function jsonLdItems(value: unknown): Item[] {
  if (Array.isArray(value)) return value.flatMap(jsonLdItems);
  if (typeof value !== "object" || value === null) return [];
  const object = value as Record<string, unknown>;
  if (Array.isArray(object["@graph"])) return (object["@graph"] as unknown[]).flatMap(jsonLdItems);
  return [toItem(object)];
}

function toItem(object: Record<string, unknown>): Item {
  const out: Record<string, unknown> = { "@type": typeNames(object["@type"]) };
  for (const [key, value] of Object.entries(object)) {
    if (key === "@type" || key === "@context") continue;
    out[key] = normalizeValue(value);
  }
  return out as Item;
}

function normalizeValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalizeValue);
  if (typeof value === "object" && value !== null) return toItem(value as Record<string, unknown>);
  return value;
}

function typeNames(value: unknown): string[] {
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list.filter((t): t is string => typeof t === "string").flatMap((t) => t.split(/\s+/)).filter(Boolean).map(shortType);
}

/** `https://schema.org/Product` → `Product`; `schema:Product` → `Product`. */
function shortType(type: string): string {
  const cut = Math.max(type.lastIndexOf("/"), type.lastIndexOf("#"), type.lastIndexOf(":"));
  return cut >= 0 ? type.slice(cut + 1) : type;
}

/** Microdata (itemscope/itemtype/itemprop) and RDFa lite (typeof/property) scopes, outermost first. */
function collectScopes(el: El, out: Item[], base: string): void {
  for (const child of el.children) {
    if (typeof child === "string") continue;
    if (isScope(child) && propNames(child).length === 0) {
      out.push(readScope(child, base));
      continue;
    }
    collectScopes(child, out, base);
  }
}

function baseOf(info: PageInfo, pageUrl: string): string {
  try {
    return info.baseHref ? new URL(info.baseHref, pageUrl).href : pageUrl;
  } catch {
    return pageUrl;
  }
}

function isScope(el: El): boolean {
  return el.attr("itemscope") !== undefined || el.attr("typeof") !== undefined;
}

function propNames(el: El): string[] {
  const raw = el.attr("itemprop") ?? (el.attr("property") !== undefined && el.tag !== "meta" ? el.attr("property") : undefined) ?? (el.tag === "meta" && el.attr("property") !== undefined && !/^(og|twitter|article|product|fb|book|profile|music|video):/i.test(el.attr("property")!) ? el.attr("property") : undefined);
  return raw ? raw.split(/\s+/).filter(Boolean).map(shortType) : [];
}

function readScope(scope: El, base: string): Item {
  const item: Record<string, unknown> = { "@type": typeNames(scope.attr("itemtype") ?? scope.attr("typeof")) };
  const add = (name: string, value: unknown): void => {
    const current = item[name];
    if (current === undefined) item[name] = value;
    else if (Array.isArray(current)) current.push(value);
    else item[name] = [current, value];
  };
  const walk = (el: El): void => {
    for (const child of el.children) {
      if (typeof child === "string") continue;
      const names = propNames(child);
      if (names.length > 0) {
        const value = isScope(child) ? readScope(child, base) : propValue(child, base);
        for (const name of names) add(name, value);
        if (isScope(child)) continue;
      } else if (isScope(child)) continue; // a separate item, not a property of this one
      walk(child);
    }
  };
  walk(scope);
  return item as Item;
}

/** The value of a microdata property, by the element that carries it (HTML microdata rules). */
function propValue(el: El, base: string): string {
  const content = el.attr("content");
  if (content !== undefined) return content;
  switch (el.tag) {
    case "a":
    case "area":
    case "link":
      return absolute(el.attr("href"), base);
    case "img":
    case "audio":
    case "video":
    case "source":
    case "iframe":
    case "embed":
    case "track":
      return absolute(el.attr("src"), base);
    case "object":
      return absolute(el.attr("data"), base);
    case "time":
      return el.attr("datetime") ?? collapseSpace(textContent(el));
    case "data":
    case "meter":
      return el.attr("value") ?? collapseSpace(textContent(el));
    default:
      return collapseSpace(textContent(el));
  }
}

/** Microdata URL properties are absolute URLs (HTML spec); a value that does not resolve is kept as written. */
function absolute(value: string | undefined, base: string): string {
  if (value === undefined) return "";
  try {
    return new URL(value.trim(), base).href;
  } catch {
    return value;
  }
}

function metaTags(info: PageInfo): Record<string, string> {
  const out: Record<string, string> = {};
  for (const attrs of info.metas) {
    let name: string | undefined;
    let content: string | undefined;
    for (let i = 0; i < attrs.length; i += 2) {
      const key = attrs[i];
      if (key === "property" || key === "name") name ??= attrs[i + 1]?.toLowerCase();
      else if (key === "content") content = attrs[i + 1];
    }
    if (name && content !== undefined && out[name] === undefined) out[name] = content.trim();
  }
  if (info.title !== undefined && out["title"] === undefined) out["title"] = collapseSpace(info.title);
  return out;
}
