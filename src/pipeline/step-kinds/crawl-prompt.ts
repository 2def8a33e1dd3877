/**
 * Crawl options from a plain-English prompt, without a model: the phrasings people use most
 * ("only blog posts", "at most 50 pages", "two levels deep", "include subdomains", "skip the
 * sitemap") become the options of SPEC.md's params-preview. What it does not recognise it
 * leaves alone; the caller says so.
 */

/** The options a prompt can set (the params-preview response's fields). */
export interface PromptOptions {
  includePaths?: string[];
  excludePaths?: string[];
  maxDiscoveryDepth?: number;
  crawlEntireDomain?: boolean;
  allowExternalLinks?: boolean;
  allowSubdomains?: boolean;
  sitemap?: "skip" | "include" | "only";
  ignoreQueryParameters?: boolean;
  deduplicateSimilarURLs?: boolean;
  delay?: number;
  limit?: number;
}

export interface PromptReading {
  options: PromptOptions;
  /** The phrases that set each option, in the prompt's words, for explanations. */
  matched: Array<{ phrase: string; option: keyof PromptOptions }>;
}

const NUMBER_WORDS: Record<string, number> = {
  a: 1, an: 1, one: 1, single: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, fifteen: 15, twenty: 20, thirty: 30, forty: 40, fifty: 50, hundred: 100, thousand: 1000,
};
const NUMBER = String.raw`(\d[\d,_]*|${Object.keys(NUMBER_WORDS).join("|")})`;

/** Site sections people name, and the path words they usually live under. */
const SECTIONS: Record<string, string[]> = {
  blog: ["blog", "posts"],
  post: ["blog", "posts"],
  article: ["articles", "blog"],
  news: ["news"],
  doc: ["docs", "documentation"],
  documentation: ["docs", "documentation"],
  guide: ["guides"],
  tutorial: ["tutorials"],
  product: ["products", "product"],
  career: ["careers", "jobs"],
  job: ["jobs", "careers"],
  changelog: ["changelog"],
  pricing: ["pricing"],
  api: ["api"],
  help: ["help", "support"],
  support: ["support", "help"],
  category: ["category", "categories"],
  tag: ["tag", "tags"],
  author: ["author", "authors"],
  event: ["events"],
  press: ["press"],
  legal: ["legal"],
  about: ["about"],
};
const FILLER = new Set(["the", "a", "an", "our", "their", "its", "all", "any", "pages", "page", "section", "sections", "posts", "post", "urls", "url", "stuff", "content", "of", "in", "on", "from", "and", "or", "its", "site", "website"]);

function toNumber(text: string): number | undefined {
  const word = NUMBER_WORDS[text.toLowerCase()];
  if (word !== undefined) return word;
  const n = Number(text.replace(/[,_]/g, ""));
  return Number.isFinite(n) ? n : undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** `^/(blog|posts)(/|$)` for "blog posts"; a literal path for "/docs/api". */
function sectionPattern(words: string): string | undefined {
  const trimmed = words.trim();
  const path = /(?:^|\s)(\/[\w\-./]*)/.exec(trimmed)?.[1];
  if (path) {
    const clean = path.replace(/\/+$/, "") || "/";
    return clean === "/" ? undefined : `^${escapeRegExp(clean)}(?:/|$)`;
  }
  const tokens = trimmed.toLowerCase().split(/[^a-z0-9-]+/).filter((t) => t !== "" && !FILLER.has(t));
  const names = new Set<string>();
  for (const token of tokens) {
    const singular = token.endsWith("ies") ? `${token.slice(0, -3)}y` : token.endsWith("s") ? token.slice(0, -1) : token;
    const known = SECTIONS[token] ?? SECTIONS[singular];
    if (known) known.forEach((n) => names.add(n));
  }
  if (names.size === 0 && tokens.length === 1) names.add(tokens[0]!);
  if (names.size === 0) return undefined;
  const list = [...names];
  return `^/${list.length === 1 ? escapeRegExp(list[0]!) : `(?:${list.map(escapeRegExp).join("|")})`}(?:/|$)`;
}

interface Rule {
  pattern: RegExp;
  apply(match: RegExpExecArray, out: PromptOptions): keyof PromptOptions | undefined;
}

const RULES: Rule[] = [
  {
    pattern: new RegExp(String.raw`\b(?:at most|up to|no more than|not more than|maximum(?: of)?|max(?:imum)?|limit(?: to| of)?|only|just|first|crawl)\s+(?:the\s+)?${NUMBER}\s+(?:pages?|urls?|documents?|links?)\b`, "gi"),
    apply: (m, out) => setNumber(out, "limit", m[1]!),
  },
  {
    pattern: new RegExp(String.raw`\b${NUMBER}\s+(?:pages?|urls?)\s+(?:at most|max(?:imum)?|tops)\b`, "gi"),
    apply: (m, out) => setNumber(out, "limit", m[1]!),
  },
  {
    pattern: new RegExp(String.raw`\b${NUMBER}\s+(?:levels?|clicks?|hops?|links?)\s+(?:deep|down|away|from the start)\b`, "gi"),
    apply: (m, out) => setNumber(out, "maxDiscoveryDepth", m[1]!),
  },
  {
    pattern: new RegExp(String.raw`\b(?:max(?:imum)?\s+)?depth\s+(?:of\s+|=\s*|:\s*)?${NUMBER}\b`, "gi"),
    apply: (m, out) => setNumber(out, "maxDiscoveryDepth", m[1]!),
  },
  {
    pattern: new RegExp(String.raw`\b(?:at most|up to|no more than)\s+${NUMBER}\s+levels?\b`, "gi"),
    apply: (m, out) => setNumber(out, "maxDiscoveryDepth", m[1]!),
  },
  {
    pattern: /\b(?:no|without|skip(?:ping)?|ignor(?:e|ing)|don'?t use|do not use)\s+(?:the\s+)?sitemaps?(?:\.xml)?\b/gi,
    apply: (_m, out) => ((out.sitemap = "skip"), "sitemap"),
  },
  {
    pattern: /\b(?:only|just)\s+(?:the\s+)?(?:urls?\s+(?:in|from)\s+the\s+)?sitemaps?(?:\.xml)?(?:\s+urls?)?\b|\bsitemaps?\s+only\b/gi,
    apply: (_m, out) => ((out.sitemap = "only"), "sitemap"),
  },
  {
    pattern: /\b(?:include|including|with|and|plus|allow|also)\s+(?:its\s+|the\s+|all\s+)?sub-?domains\b|\bsub-?domains\s+(?:too|as well|included)\b/gi,
    apply: (_m, out) => ((out.allowSubdomains = true), "allowSubdomains"),
  },
  {
    pattern: /\b(?:the\s+)?(?:entire|whole|full|complete)\s+(?:site|website|domain)\b|\beverything on the (?:site|domain)\b/gi,
    apply: (_m, out) => ((out.crawlEntireDomain = true), "crawlEntireDomain"),
  },
  {
    pattern: /\b(?:follow|include|allow)\s+(?:the\s+)?(?:external|outbound|outgoing|off-?site)\s+links\b/gi,
    apply: (_m, out) => ((out.allowExternalLinks = true), "allowExternalLinks"),
  },
  {
    pattern: /\bignor(?:e|ing)\s+(?:the\s+)?query\s+(?:parameters|params|strings?)\b/gi,
    apply: (_m, out) => ((out.ignoreQueryParameters = true), "ignoreQueryParameters"),
  },
  {
    pattern: /\b(?:deduplicate|dedupe|skip)\s+(?:near[- ]duplicate|similar)\s+(?:urls?|pages?)\b/gi,
    apply: (_m, out) => ((out.deduplicateSimilarURLs = true), "deduplicateSimilarURLs"),
  },
  {
    pattern: new RegExp(String.raw`\b(?:wait|delay(?: of)?|pause(?: for)?)\s+${NUMBER}(?:\.\d+)?\s*(?:seconds?|secs?|s)\b`, "gi"),
    apply: (m, out) => {
      const n = /(\d+(?:\.\d+)?)\s*(?:seconds?|secs?|s)\b/i.exec(m[0])?.[1];
      const value = n !== undefined ? Number(n) : toNumber(m[1]!);
      if (value === undefined || value < 0) return undefined;
      out.delay = value;
      return "delay";
    },
  },
  {
    pattern: /\b(?:except|excluding|exclude|skip(?:ping)?|ignor(?:e|ing)|without|not|no|avoid(?:ing)?|leave out)\s+((?:the\s+|any\s+|all\s+)?(?:\/[\w\-./]*|[a-z][\w-]*)(?:\s+(?:pages?|posts?|sections?|articles?|urls?))?)/gi,
    apply: (m, out) => {
      if (/\b(?:sitemaps?|sub-?domains|query|external|similar|near|more|than|deeper)\b/i.test(m[1]!)) return undefined;
      const pattern = sectionPattern(m[1]!);
      if (!pattern) return undefined;
      (out.excludePaths ??= []).push(pattern);
      return "excludePaths";
    },
  },
  {
    pattern: /\b(?:only|just|solely|exclusively)\s+(?:crawl\s+|the\s+|pages\s+(?:under|in)\s+|(?:under|in)\s+)*((?:\/[\w\-./]*|[a-z][\w-]*)(?:\s+(?:pages?|posts?|sections?|articles?|entries))?)/gi,
    apply: (m, out) => {
      if (/\b(?:sitemaps?|sub-?domains|\d+|one|two|three|four|five|ten|first)\b/i.test(m[1]!)) return undefined;
      const pattern = sectionPattern(m[1]!);
      if (!pattern) return undefined;
      (out.includePaths ??= []).push(pattern);
      return "includePaths";
    },
  },
];

function setNumber(out: PromptOptions, key: "limit" | "maxDiscoveryDepth", text: string): keyof PromptOptions | undefined {
  const value = toNumber(text);
  if (value === undefined || !Number.isInteger(value) || value < (key === "limit" ? 1 : 0)) return undefined;
  out[key] = value;
  return key;
}

/** Reads crawl options from `prompt`. Later phrases win over earlier ones for the same option. */
export function readCrawlPrompt(prompt: string): PromptReading {
  const options: PromptOptions = {};
  const matched: PromptReading["matched"] = [];
  const taken: Array<[number, number]> = [];
  for (const rule of RULES) {
    rule.pattern.lastIndex = 0;
    for (let m = rule.pattern.exec(prompt); m; m = rule.pattern.exec(prompt)) {
      const start = m.index;
      const end = start + m[0].length;
      if (taken.some(([a, b]) => start < b && end > a)) continue;
      const option = rule.apply(m, options);
      if (!option) continue;
      taken.push([start, end]);
      matched.push({ phrase: m[0].trim(), option });
    }
  }
  if (options.includePaths) options.includePaths = [...new Set(options.includePaths)];
  if (options.excludePaths) options.excludePaths = [...new Set(options.excludePaths)];
  return { options, matched };
}
