/** A link with what is known about it. */
export interface RankedLink {
  url: string;
  title?: string;
  description?: string;
}

/**
 * Orders links by relevance to a search term, most relevant first; links that do not match
 * keep their order after those that do. Each token of the term scores 3 as a whole word of the
 * URL's host, path or query, 2 as a part of one, 2 as a word of the title, 1 inside the title
 * or description; the whole term written as one slug (`pricing-plans`) adds 2.
 */
export function rankByRelevance<T extends RankedLink>(links: readonly T[], term: string): T[] {
  const terms = words(term);
  if (terms.length === 0) return [...links];
  const slugs = terms.length > 1 ? [terms.join("-"), terms.join("_"), terms.join("")] : [];
  const scored = links.map((link, index) => ({ link, index, score: score(link, terms, slugs) }));
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  return scored.map((s) => s.link);
}

function score(link: RankedLink, terms: string[], slugs: string[]): number {
  const where = urlText(link.url);
  const urlWords = new Set(words(where));
  const title = (link.title ?? "").toLowerCase();
  const titleWords = new Set(words(title));
  const description = (link.description ?? "").toLowerCase();
  let total = 0;
  for (const term of terms) {
    if (urlWords.has(term)) total += 3;
    else if (where.includes(term)) total += 2;
    if (titleWords.has(term)) total += 2;
    else if (title.includes(term)) total += 1;
    if (description.includes(term)) total += 1;
  }
  if (slugs.some((slug) => where.includes(slug))) total += 2;
  return total;
}

function urlText(href: string): string {
  try {
    const url = new URL(href);
    const text = `${url.hostname} ${url.pathname} ${url.search}`;
    try {
      return decodeURIComponent(text).toLowerCase();
    } catch {
      return text.toLowerCase();
    }
  } catch {
    return href.toLowerCase();
  }
}

function words(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== "");
}
