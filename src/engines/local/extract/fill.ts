import type { JsonSchema } from "../../../core/index.js";
import { ScrapelineError } from "../../../core/index.js";
import { collapseSpace, type El, textContent } from "../html/dom.js";
import { selectAll } from "../html/select.js";
import { coerceScalar, schemaType } from "./coerce.js";
import { isItem, type Item, type StructuredData } from "./structured-data.js";

/** Where values are looked for: the page's structured data, its elements, and its URL for relative links. */
export interface FillContext {
  data: StructuredData;
  root: El;
  url: string;
}

/**
 * Fills a JSON Schema from a page without a model: fields annotated with `x-selector` (and
 * `x-attribute`) are read from the elements they select; the others by name from the page's
 * JSON-LD, microdata, RDFa and OpenGraph. Fields with no value are left out. Same page, same output.
 */
export function fillSchema(schema: JsonSchema, ctx: FillContext): unknown {
  if (schemaType(schema) === "object") {
    const main = mainItem(schema, ctx.data);
    return fillObject(schema, ctx, ctx.root, main) ?? {};
  }
  return fillValue("", schema, ctx, ctx.root, mainItem(schema, ctx.data));
}

function fillObject(schema: JsonSchema, ctx: FillContext, scope: El, item: Item | undefined): Record<string, unknown> | undefined {
  const props = (schema["properties"] ?? {}) as Record<string, JsonSchema>;
  const out: Record<string, unknown> = {};
  for (const [key, prop] of Object.entries(props)) {
    const value = fillValue(key, prop, ctx, scope, item);
    if (value !== undefined) out[key] = value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function fillValue(key: string, schema: JsonSchema, ctx: FillContext, scope: El, item: Item | undefined): unknown {
  const selector = schema["x-selector"];
  if (typeof selector === "string") return fromSelector(selector, schema, ctx, scope);
  const type = schemaType(schema);
  if (type === "array") return arrayFromData(key, schema, ctx, item);
  if (type === "object") {
    const nested = item ? lookup(item, key) : undefined;
    const source = pick(isItem, nested) ?? typedItem(ctx.data.all, key);
    return source ? fillObject(schema, ctx, scope, source) : undefined;
  }
  const found = item ? lookup(item, key) : undefined;
  const scalar = coerceScalar(scalarOf(found), schema);
  return scalar !== undefined ? scalar : coerceScalar(fromMeta(key, ctx.data.meta), schema);
}

function fromSelector(selector: string, schema: JsonSchema, ctx: FillContext, scope: El): unknown {
  let matches: El[];
  try {
    matches = selectAll(scope, selector);
  } catch (error) {
    throw new ScrapelineError("invalid-input", `x-selector "${selector}" is not a valid CSS selector: ${(error as Error).message}`);
  }
  const type = schemaType(schema);
  if (type === "array" || schema["x-all"] === true) {
    const items = (schema["items"] ?? {}) as JsonSchema;
    const values = matches.map((el) => (schemaType(items) === "object" ? fillObject(items, ctx, el, undefined) : coerceScalar(readElement(el, items, ctx), items)));
    return values.filter((v) => v !== undefined);
  }
  const first = matches[0];
  if (!first) return undefined;
  if (type === "object") return fillObject(schema, ctx, first, undefined);
  return coerceScalar(readElement(first, schema, ctx), schema);
}

const URL_ATTRIBUTES = new Set(["href", "src", "action", "poster", "data-src", "cite"]);

function readElement(el: El, schema: JsonSchema, ctx: FillContext): string | undefined {
  const attribute = schema["x-attribute"];
  if (typeof attribute !== "string") return collapseSpace(textContent(el));
  const value = el.attr(attribute);
  if (value === undefined || !URL_ATTRIBUTES.has(attribute)) return value;
  try {
    return new URL(value, ctx.url).href;
  } catch {
    return value;
  }
}

function arrayFromData(key: string, schema: JsonSchema, ctx: FillContext, item: Item | undefined): unknown[] | undefined {
  const items = (schema["items"] ?? {}) as JsonSchema;
  const own = item ? lookup(item, key) : undefined;
  if (schemaType(items) === "object") {
    let sources = (Array.isArray(own) ? own : own === undefined ? [] : [own]).filter(isItem);
    if (sources.length === 0) sources = ctx.data.all.filter((i) => typeMatches(i, key));
    // A list whose name says nothing of a type (`items`, `results`): the page's own items.
    if (sources.length === 0 && own === undefined) sources = ctx.data.items.filter((i) => !i["@type"].some((t) => CHROME.has(t)));
    const out = sources.map((s) => fillObject(items, ctx, ctx.root, s)).filter((v) => v !== undefined);
    return out.length > 0 ? out : undefined;
  }
  const list = own === undefined ? [] : Array.isArray(own) ? own : [own];
  const out = list.map((v) => coerceScalar(scalarOf(v), items)).filter((v) => v !== undefined);
  if (out.length === 0) {
    const meta = coerceScalar(fromMeta(key, ctx.data.meta), items);
    return meta === undefined ? undefined : [meta];
  }
  return out;
}

/** The item that best describes the page for this schema: the one naming most of its fields. */
function mainItem(schema: JsonSchema, data: StructuredData): Item | undefined {
  const keys = Object.keys((schema["properties"] ?? {}) as object);
  let best: Item | undefined;
  let bestScore = 0;
  for (const item of data.all) {
    if (item["@type"].some((t) => CHROME.has(t))) continue;
    const score = keys.filter((k) => lookup(item, k) !== undefined).length + (data.items.includes(item) ? 0.5 : 0);
    if (score > bestScore) {
      best = item;
      bestScore = score;
    }
  }
  return best;
}

/** Items about the site rather than the page's subject. */
const CHROME = new Set(["WebSite", "BreadcrumbList", "SiteNavigationElement", "SearchAction", "ListItem", "ReadAction", "EntryPoint"]);

/** Where a field is usually found when a page does not use its name. */
const SYNONYMS: Record<string, string[]> = {
  title: ["name", "headline"],
  name: ["headline", "title"],
  headline: ["name"],
  price: ["offers.price", "offers.lowPrice", "offers.priceSpecification.price"],
  currency: ["priceCurrency", "offers.priceCurrency"],
  pricecurrency: ["offers.priceCurrency"],
  availability: ["offers.availability"],
  instock: ["offers.availability"],
  available: ["offers.availability"],
  rating: ["aggregateRating.ratingValue", "reviewRating.ratingValue"],
  ratingvalue: ["aggregateRating.ratingValue", "reviewRating.ratingValue"],
  reviewcount: ["aggregateRating.reviewCount", "aggregateRating.ratingCount"],
  author: ["author.name", "creator.name"],
  date: ["datePublished", "dateCreated", "startDate"],
  published: ["datePublished"],
  publisheddate: ["datePublished"],
  image: ["image.url", "thumbnailUrl"],
  brand: ["brand.name"],
  sku: ["mpn", "gtin13", "productID"],
  url: ["@id", "mainEntityOfPage"],
};

/** A field of an item by name (case-insensitive), then by its usual alternatives and nested paths. */
export function lookup(item: Item, key: string): unknown {
  const direct = byName(item, key);
  if (direct !== undefined) return direct;
  for (const path of SYNONYMS[key.toLowerCase()] ?? []) {
    let node: unknown = item;
    for (const part of path.split(".")) {
      const holder = Array.isArray(node) ? node[0] : node;
      node = isItem(holder) ? byName(holder, part) : undefined;
      if (node === undefined) break;
    }
    if (node !== undefined) return node;
  }
  return undefined;
}

function byName(item: Item, key: string): unknown {
  if (key in item && key !== "@type") return item[key];
  const lower = key.toLowerCase();
  for (const name of Object.keys(item)) if (name.toLowerCase() === lower && name !== "@type") return item[name];
  return undefined;
}

/** A scalar standing for a value: an item's name (or url, or value), an array's first element. */
function scalarOf(value: unknown): unknown {
  if (Array.isArray(value)) return scalarOf(value[0]);
  if (isItem(value)) return value["name"] ?? value["value"] ?? value["url"] ?? value["@id"] ?? value["ratingValue"] ?? value["price"];
  return value;
}

function pick<T>(guard: (v: unknown) => v is T, value: unknown): T | undefined {
  if (Array.isArray(value)) return value.find(guard);
  return guard(value) ? value : undefined;
}

/** `products` matches items of type Product; `reviews` → Review; `offers` → Offer. */
function typeMatches(item: Item, key: string): boolean {
  const singular = key.toLowerCase().replace(/ies$/, "y").replace(/s$/, "");
  return item["@type"].some((t) => t.toLowerCase() === singular || t.toLowerCase() === key.toLowerCase());
}

function typedItem(all: Item[], key: string): Item | undefined {
  return all.find((i) => typeMatches(i, key));
}

const META_KEYS: Record<string, string[]> = {
  title: ["og:title", "twitter:title", "title"],
  name: ["og:title", "twitter:title", "title"],
  headline: ["og:title", "title"],
  description: ["og:description", "twitter:description", "description"],
  image: ["og:image", "og:image:url", "twitter:image"],
  url: ["og:url"],
  type: ["og:type"],
  sitename: ["og:site_name"],
  price: ["product:price:amount", "og:price:amount"],
  currency: ["product:price:currency", "og:price:currency"],
  author: ["author", "article:author"],
  keywords: ["keywords"],
  publishedtime: ["article:published_time"],
  date: ["article:published_time"],
};

function fromMeta(key: string, meta: Record<string, string>): string | undefined {
  const lower = key.toLowerCase();
  for (const name of META_KEYS[lower] ?? [`og:${lower}`, lower]) if (meta[name] !== undefined) return meta[name];
  return undefined;
}
