/**
 * What a page's structured data (schema.org JSON-LD) says of its article: who wrote it, when, and
 * its text. Pages state these for search engines; the tool reads them as facts about the page
 * (metadata). Malformed data is ignored.
 */
export interface ArticleFacts {
  author?: string;
  publishedTime?: string;
  modifiedTime?: string;
  /** The article's text as the page states it (plain text, often without headings or captions). */
  articleBody?: string;
}

/** schema.org types of an article or a post (NewsArticle, BlogPosting, ReportageNewsArticle, …). */
const ARTICLE_TYPE = /(Article|BlogPosting|SocialMediaPosting|LiveBlogPosting|Report)$/;
/** Nodes looked at, in all: structured data is small; a page that nests thousands is not read further. */
const MAX_NODES = 5_000;

type Node = Record<string, unknown>;

export function articleFacts(texts: readonly string[]): ArticleFacts {
  const nodes: Node[] = [];
  for (const text of texts) collect(parse(text), nodes);
  const byId = new Map<string, Node>();
  for (const node of nodes) if (typeof node["@id"] === "string") byId.set(node["@id"], node);
  const article = nodes.find((node) => types(node).some((type) => ARTICLE_TYPE.test(type)));
  if (article === undefined) return {};
  const facts: ArticleFacts = {};
  const author = names(article["author"], byId);
  if (author !== "") facts.author = author;
  const published = dateOf(article["datePublished"]);
  if (published !== undefined) facts.publishedTime = published;
  const modified = dateOf(article["dateModified"]);
  if (modified !== undefined) facts.modifiedTime = modified;
  if (typeof article["articleBody"] === "string" && article["articleBody"].trim() !== "") facts.articleBody = article["articleBody"];
  return facts;
}

function parse(text: string): unknown {
  // Some templates wrap the data in an HTML comment or CDATA section.
  const trimmed = text.trim().replace(/^(<!--|\/\/\s*<!\[CDATA\[)/, "").replace(/(-->|\/\/\s*\]\]>)$/, "").trim();
  if (trimmed === "") return undefined;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    // Raw line breaks inside strings are the usual fault; other damage leaves the data unread.
    try {
      return JSON.parse(trimmed.replace(/[\n\r\t]+/g, " ")) as unknown;
    } catch {
      return undefined;
    }
  }
}

/** Every object of the data, depth first (top-level arrays and `@graph` lists included). */
function collect(value: unknown, out: Node[], depth = 0): void {
  if (out.length >= MAX_NODES || depth > 8 || value === null || typeof value !== "object") return;
  if (Array.isArray(value)) {
    for (const item of value) collect(item, out, depth + 1);
    return;
  }
  const node = value as Node;
  out.push(node);
  for (const key of ["@graph", "mainEntity", "mainEntityOfPage", "itemListElement"]) collect(node[key], out, depth + 1);
}

function types(node: Node): string[] {
  const type = node["@type"];
  if (typeof type === "string") return [type];
  return Array.isArray(type) ? type.filter((t): t is string => typeof t === "string") : [];
}

/** Author names: a string, a Person or Organization (or a reference to one), or a list of those. */
function names(value: unknown, byId: Map<string, Node>): string {
  const list = Array.isArray(value) ? value : [value];
  const found: string[] = [];
  for (const item of list.slice(0, 20)) {
    let name: unknown = item;
    if (item !== null && typeof item === "object") {
      const node = item as Node;
      const target = typeof node["@id"] === "string" && node["name"] === undefined ? byId.get(node["@id"]) : node;
      name = target?.["name"];
    }
    if (typeof name !== "string") continue;
    const clean = name.replace(/\s+/g, " ").trim();
    if (clean !== "" && clean.length <= 200 && !/^https?:\/\//.test(clean) && !found.includes(clean)) found.push(clean);
  }
  return found.join(", ");
}

function dateOf(value: unknown): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (typeof text !== "string") return undefined;
  const trimmed = text.trim();
  return trimmed !== "" && trimmed.length <= 64 && /\d{4}/.test(trimmed) ? trimmed : undefined;
}
