import MarkdownIt from "markdown-it";
import { escapeHtml, trusted, type Html } from "./html.js";

/** Schemes a link in rendered scraped markdown may keep. */
const ALLOWED_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);

/**
 * A link or image URL of a scraped page as it may appear in the UI: absolute (resolved against the
 * page's own URL when relative), http(s) or mailto. Anything else (javascript:, data:, vbscript:,
 * file:, a relative URL with no page to resolve it against) is undefined and is not linked.
 */
export function safeUrl(raw: string, pageUrl: string | undefined): string | undefined {
  const text = raw.trim();
  let base: URL | undefined;
  try {
    base = pageUrl ? new URL(pageUrl) : undefined;
  } catch {
    base = undefined;
  }
  if (base && !ALLOWED_PROTOCOLS.has(base.protocol)) base = undefined;
  let url: URL;
  try {
    url = base ? new URL(text, base) : new URL(text);
  } catch {
    return undefined;
  }
  return ALLOWED_PROTOCOLS.has(url.protocol) ? url.href : undefined;
}

const engine = new MarkdownIt({ html: false, linkify: false, typographer: false });
// Links are checked in the renderers below, where the page's URL is known.
engine.validateLink = () => true;

interface Env {
  pageUrl?: string | undefined;
}

engine.renderer.rules.link_open = (tokens, idx, _options, env: unknown) => {
  const href = safeUrl(String(tokens[idx]!.attrGet("href") ?? ""), (env as Env | undefined)?.pageUrl);
  // A refused link keeps its text, unlinked: the closing tag is dropped with it.
  if (href === undefined) {
    let depth = 0;
    for (let i = idx + 1; i < tokens.length; i++) {
      if (tokens[i]!.type === "link_open") depth++;
      if (tokens[i]!.type === "link_close") {
        if (depth === 0) {
          tokens[i]!.type = "text";
          tokens[i]!.content = "";
          break;
        }
        depth--;
      }
    }
    return "";
  }
  return `<a href="${escapeHtml(href)}" rel="nofollow noopener noreferrer">`;
};

// Images are never loaded (the Content-Security-Policy would refuse them anyway): each is a link to where it lives.
engine.renderer.rules.image = (tokens, idx, _options, env: unknown) => {
  const token = tokens[idx]!;
  const alt = token.children ? token.children.map((child) => child.content).join("") : token.content;
  const label = `[image${alt ? `: ${alt}` : ""}]`;
  const src = safeUrl(String(token.attrGet("src") ?? ""), (env as Env | undefined)?.pageUrl);
  if (src === undefined) return `<span class="image-ref">${escapeHtml(label)}</span>`;
  return `<a class="image-ref" href="${escapeHtml(src)}" rel="nofollow noopener noreferrer">${escapeHtml(label)}</a>`;
};

/** Scraped markdown as sanitized HTML: raw HTML in it is shown as text, links checked and resolved against the page's URL, images as links. */
export function renderMarkdown(markdown: string, pageUrl: string | undefined): Html {
  return trusted(engine.render(markdown, { pageUrl } satisfies Env));
}
