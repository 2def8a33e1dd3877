/**
 * Tells a block or challenge page from content. A site behind an anti-bot service may answer a
 * scraper with a page that is not the one asked for: a challenge, a captcha, an "access denied".
 * Each vendor is known by its page's shape — its headers, its status, its own scripts and markers,
 * a title and a body too small to be an article — never by words alone, so a page that writes
 * about Cloudflare or embeds a captcha in its contact form is content.
 */

import { decodeHTML } from "entities";

export interface AnsweredPage {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  html: string;
}

/** Who blocked the page, as the error says it: "blocked by <vendor>". */
export type BlockVendor =
  | "Cloudflare"
  | "Akamai"
  | "PerimeterX"
  | "DataDome"
  | "Imperva"
  | "AWS WAF"
  | "hCaptcha"
  | "reCAPTCHA"
  | "Turnstile"
  | "a JavaScript and cookie check";

/** A page whose visible text is at most this long can be a wall; an article or a shop page is longer. */
const SMALL_TEXT = 1500;
/** Block pages are small even with their scripts inline; a larger answer is judged by its headers alone. */
const MAX_WALL_BYTES = 512 * 1024;
/** A generic "enable JavaScript and cookies" wall says little else. */
const TINY_TEXT = 400;

interface PageShape {
  status: number;
  headers: Record<string, string>;
  title: string;
  /** Tags and script bodies outside <pre>, <code> and <textarea>: where a vendor's markers count (prose and code samples do not). */
  markup: string;
  text: string;
  /** Inputs a person fills in (not hidden, not buttons), textareas and selects. */
  fields: number;
}

/** The vendor whose block or challenge page this is, or undefined for content. */
export function detectBlockPage(page: AnsweredPage): BlockVendor | undefined {
  const byHeader = byHeaders(page);
  if (byHeader) return byHeader;
  // Every other sign needs a small page: a long one is content, and is not read further.
  if (page.html.length > MAX_WALL_BYTES) return undefined;
  const text = visibleTextWithin(page.html, SMALL_TEXT);
  if (text === undefined) return undefined;
  const shape = shapeOf(page, text);
  return byVendorMarkup(shape) ?? captchaOnly(shape) ?? javascriptWall(shape);
}

function shapeOf(page: AnsweredPage, text: string): PageShape {
  const outsideSamples = page.html.replace(/<(pre|code|textarea)\b[\s\S]*?<\/\1\s*>/gi, " ");
  const scripts = [...outsideSamples.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script\s*>/gi)].map((m) => m[1] ?? "");
  const tags = outsideSamples.replace(/<script\b([^>]*)>[\s\S]*?<\/script\s*>/gi, "<script$1>").match(/<[^>]+>/g) ?? [];
  const markup = [...tags, ...scripts].join("\n");
  const title = decodeHTML(/<title[^>]*>([\s\S]*?)<\/title\s*>/i.exec(outsideSamples)?.[1] ?? "").replace(/\s+/g, " ").trim();
  const fields = [...page.html.matchAll(/<input\b[^>]*>/gi)].filter((m) => !/\btype\s*=\s*["']?(hidden|submit|button|image|reset)\b/i.test(m[0])).length + (page.html.match(/<(textarea|select)\b/gi)?.length ?? 0);
  return { status: page.status, headers: page.headers, title, markup, text, fields };
}

/** Headers only a vendor's challenge answer carries. */
function byHeaders(page: AnsweredPage): BlockVendor | undefined {
  const h = page.headers;
  if (/\bchallenge\b/i.test(h["cf-mitigated"] ?? "")) return "Cloudflare";
  if (/^(challenge|captcha|block)$/i.test((h["x-amzn-waf-action"] ?? "").trim())) return "AWS WAF";
  // DataDome marks every answer of a site it protects; a refusal is a 403 with a small body.
  if (h["x-datadome"] !== undefined && page.status === 403 && page.html.length <= MAX_WALL_BYTES && visibleTextWithin(page.html, SMALL_TEXT) !== undefined) return "DataDome";
  return undefined;
}

/** A vendor's own challenge scripts and markers, on a small page. */
function byVendorMarkup(page: PageShape): BlockVendor | undefined {
  const m = page.markup;
  const cloudflareServed = /cloudflare/i.test(page.headers.server ?? "") || page.headers["cf-ray"] !== undefined;
  const challengeAnswer = page.status === 403 || page.status === 503 || page.status === 429;
  if (/cf_chl_\w+/.test(m)) return "Cloudflare";
  if (/\/cdn-cgi\/challenge-platform\/(?!\S*scripts\/jsd\/)/.test(m) && (challengeAnswer || /^Just a moment/i.test(page.title))) return "Cloudflare";
  if ((cloudflareServed || /\bcf-error-details\b|\bcf-wrapper\b/.test(m)) && challengeAnswer && /^(Just a moment|Attention Required!)|\| Cloudflare$/i.test(page.title)) return "Cloudflare";
  const denied = page.status === 403 && /^Access Denied$/i.test(page.title);
  if (denied && (/errors\.edgesuite\.net/i.test(m) || /Reference\s*#\s*\d+\.[0-9a-f]+\.\d+\.[0-9a-f]+/i.test(page.text))) return "Akamai";
  if (/\bwindow\._px(AppId|Vid|Uuid|HostUrl|JsClientSrc)\b|captcha\.px-cdn\.net|\bpx-captcha\b|\/_px\w*\/captcha/i.test(m)) return "PerimeterX";
  if (/(geo\.|ct\.)?captcha-delivery\.com|\bvar dd\s*=\s*\{[^}]*['"]?cid['"]?\s*:/i.test(m)) return "DataDome";
  if (/_Incapsula_Resource|\bincap_ses_/i.test(m) || ((page.headers["x-iinfo"] !== undefined || /incapsula/i.test(page.headers["x-cdn"] ?? "")) && /Incapsula incident ID/i.test(page.text))) return "Imperva";
  if (/\bAwsWafIntegration\b|\.token\.awswaf\.com|\bawsWafCookieDomainList\b/.test(m)) return "AWS WAF";
  return undefined;
}

const HUMAN_CHECK = /\b(verify (that )?you('| a)re (a )?human|are you (a )?(human|robot)|not a robot|human verification|security check|unusual traffic|complete the (captcha|challenge|security check)|prove you('| a)re human|checking your browser|confirm you are human)\b/i;

/**
 * A page that is only a captcha: a widget, a line asking to prove being human, and nothing to
 * fill in (a contact form or a login that carries a captcha has fields, and is content).
 */
function captchaOnly(page: PageShape): BlockVendor | undefined {
  if (page.fields > 0 || !HUMAN_CHECK.test(`${page.title} ${page.text}`)) return undefined;
  const m = page.markup;
  if (/\bh-captcha\b|hcaptcha\.com\/1\/api\.js|js\.hcaptcha\.com/i.test(m)) return "hCaptcha";
  if (/challenges\.cloudflare\.com\/turnstile|\bcf-turnstile\b/i.test(m)) return "Turnstile";
  if (/\bg-recaptcha\b|google\.com\/recaptcha\/|recaptcha\.net\/recaptcha\//i.test(m)) return "reCAPTCHA";
  return undefined;
}

const JS_COOKIE_WALL = /\b(enable|turn on|allow)\s+(javascript|js)\s+and\s+cookies\b|\b(javascript|js)\s+and\s+cookies\s+(are|must be)\s+(required|enabled)|\bplease enable cookies\b[\s\S]{0,80}\b(javascript|js)\b|\b(enable|turn on)\s+cookies\s+and\s+(javascript|js)\b/i;

/** A near-empty page whose whole message is to enable JavaScript and cookies, with nothing to fill in. */
function javascriptWall(page: PageShape): BlockVendor | undefined {
  if (page.text.length > TINY_TEXT || page.fields > 0) return undefined;
  return JS_COOKIE_WALL.test(`${page.title} ${page.text}`) ? "a JavaScript and cookie check" : undefined;
}

/** The text a reader sees: without the head, scripts, styles, comments and tags, spaces collapsed. */
export function visibleText(html: string): string {
  return collapsed(withoutMarkup(html) ?? "");
}

/** Where `visibleTextWithin` first looks for more text than it wants: an article shows that much within its first bytes. */
const FIRST_LOOK = 8 * 1024;
/** More than the longest character reference, so a reference cut short at the end of a part cannot make it look longer. */
const REFERENCE_SLACK = 64;

/**
 * The visible text of `html` when it is at most `max` characters long, else undefined; a page of
 * articles is not read to its end. The part up to the first `>` after `firstLook` characters is
 * read first: when none of its scripts, comments or tags run on past it, its text begins the
 * page's text, and more than `max` characters of it settle the answer. Otherwise the whole page is read.
 */
export function visibleTextWithin(html: string, max: number, firstLook = FIRST_LOOK): string | undefined {
  const cut = html.length > 2 * firstLook ? html.indexOf(">", firstLook) : -1;
  if (cut > 0) {
    const part = withoutMarkup(html.slice(0, cut + 1), true);
    if (part !== undefined && plainWordsLength(part) > max + REFERENCE_SLACK) return undefined;
  }
  const text = visibleText(html);
  return text.length > max ? undefined : text;
}

/**
 * The html without its head, scripts, styles, comments and tags. With `part`, the html is the
 * beginning of a page and undefined says that something it opens may end after it (the page's
 * text could then differ from the part's), so only the whole page tells.
 */
function withoutMarkup(html: string, part = false): string | undefined {
  const head = /<head\b[\s\S]*?<\/head\s*>/i;
  if (part && !head.test(html) && /<head\b/i.test(html)) return undefined;
  const unscripted = html.replace(head, " ").replace(/<(script|style|template|svg)\b[\s\S]*?<\/\1\s*>/gi, " ");
  if (part && /<(script|style|template|svg)\b/i.test(unscripted)) return undefined;
  const uncommented = unscripted.replace(/<!--[\s\S]*?-->/g, " ");
  if (part && uncommented.includes("<!--")) return undefined;
  const text = uncommented.replace(/<[^>]+>/g, " ");
  if (part && /<[^>]/.test(text)) return undefined;
  return text;
}

/**
 * How long the collapsed text of `body` is at least, without decoding it: its words without a `&`
 * are kept as they are, one space apart at least (a word with a character reference counts
 * nothing, since a reference may decode to a space). Spaces are JavaScript's `\s`, as `collapsed` has them.
 */
function plainWordsLength(body: string): number {
  let length = 0;
  let words = 0;
  let word = 0;
  let plain = true;
  for (let i = 0; i <= body.length; i++) {
    const c = i < body.length ? body.charCodeAt(i) : 32;
    if (isSpace(c)) {
      if (word > 0 && plain) {
        length += word;
        words++;
      }
      word = 0;
      plain = true;
    } else {
      word++;
      if (c === 38) plain = false;
    }
  }
  return words > 0 ? length + words - 1 : 0;
}

/** Whether a UTF-16 code unit is in JavaScript's `\s` (white space and line terminators). */
function isSpace(c: number): boolean {
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

function collapsed(body: string): string {
  return decodeHTML(body).replace(/\s+/g, " ").trim();
}
