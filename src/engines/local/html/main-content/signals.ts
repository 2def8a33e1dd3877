import type { El } from "../dom.js";

// Class and id words that suggest what an element holds (the heuristics of reader views).
const UNLIKELY = /-ad-|ai2html|banner|breadcrumbs|combx|comment|community|cover-wrap|disqus|extra|footer|gdpr|header|legends|menu|related|remark|replies|rss|shoutbox|sidebar|skyscraper|social|sponsor|supplemental|ad-break|agegate|pagination|pager|popup|yom-remote/i;
const MAYBE = /and|article|body|column|content|main|mathjax|shadow/i;
const POSITIVE = /article|body|content|entry|hentry|h-entry|main|page|pagination|post|text|blog|story/i;
const NEGATIVE = /-ad-|hidden|^hid$| hid$| hid |^hid |banner|combx|comment|com-|contact|footer|gdpr|masthead|media|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|widget/i;
const BYLINE = /byline|author|dateline|writtenby|p-author/i;
const SHARE = /(\b|_)(share|sharedaddy)(\b|_)/i;
/** An embedded post (a tweet, an Instagram or TikTok post): quoted content, whatever box holds it. */
const EMBED = /embed|twitter-tweet|instagram-media/i;

export const HINT_UNLIKELY = 1;
export const HINT_MAYBE = 2;
export const HINT_POSITIVE = 4;
export const HINT_NEGATIVE = 8;
export const HINT_BYLINE = 16;
export const HINT_SHARE = 32;
export const HINT_EMBED = 64;

/** Any of the words above: most class names match none, and one test settles them. */
const ANY = new RegExp([UNLIKELY, MAYBE, POSITIVE, NEGATIVE, BYLINE, SHARE, EMBED].map((re) => re.source).join("|"), "i");

/** Class and id values seen lately; bounded, and its keys are copies (see `ownCopy`). */
const cache = new Map<string, number>();
const CACHE_LIMIT = 20_000;

/** Which hint patterns a class or id value matches, as HINT_* bits (cached: pages repeat class names). */
export function hints(value: string): number {
  if (value === "") return 0;
  let bits = cache.get(value);
  if (bits !== undefined) return bits;
  bits = !ANY.test(value) ? 0 : (UNLIKELY.test(value) ? HINT_UNLIKELY : 0)
    | (MAYBE.test(value) ? HINT_MAYBE : 0)
    | (POSITIVE.test(value) ? HINT_POSITIVE : 0)
    | (NEGATIVE.test(value) ? HINT_NEGATIVE : 0)
    | (BYLINE.test(value) ? HINT_BYLINE : 0)
    | (SHARE.test(value) ? HINT_SHARE : 0)
    | (EMBED.test(value) ? HINT_EMBED : 0);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(ownCopy(value), bits);
  return bits;
}

/** Hint bits of an element: its class's in the low byte, its id's in the next (computed once per element). */
export function hintBits(el: El): number {
  if (el.hints < 0) el.hints = hints(el.attr("class") ?? "") | (hints(el.attr("id") ?? "") << 8);
  return el.hints;
}

/** Hint bits of an element's class and id together. */
export function elementHints(el: El): number {
  const bits = hintBits(el);
  return (bits | (bits >> 8)) & 0xff;
}

/** ±25 for each of class and id that looks like content or like clutter. */
export function classWeight(el: El): number {
  const bits = hintBits(el);
  let weight = 0;
  if (bits & HINT_NEGATIVE) weight -= 25;
  if (bits & HINT_POSITIVE) weight += 25;
  if (bits & (HINT_NEGATIVE << 8)) weight -= 25;
  if (bits & (HINT_POSITIVE << 8)) weight += 25;
  return weight;
}

const UNLIKELY_ROLES = new Set(["menu", "menubar", "complementary", "navigation", "alert", "alertdialog", "dialog"]);

export function hasUnlikelyRole(el: El): boolean {
  const role = el.attr("role");
  return role !== undefined && UNLIKELY_ROLES.has(role.trim().toLowerCase());
}

/** Hidden by `hidden`, `aria-hidden="true"`, or an inline `display:none` / `visibility:hidden`. */
export function isHidden(el: El): boolean {
  const attrs = el.attrs;
  for (let i = 0; i < attrs.length; i += 2) {
    const name = attrs[i];
    if (name === "hidden") return true;
    if (name === "aria-hidden" && attrs[i + 1]!.trim() === "true") return !(el.attr("class") ?? "").includes("fallback-image");
    if (name === "style") {
      const style = attrs[i + 1]!;
      if (style.indexOf("none") !== -1 && /display\s*:\s*none/i.test(style)) return true;
      if (style.indexOf("hidden") !== -1 && /visibility\s*:\s*hidden/i.test(style)) return true;
    }
  }
  return false;
}

/** Modal dialogs are not part of an article. */
export function isDialog(el: El): boolean {
  return el.attr("aria-modal") === "true" || el.attr("role") === "dialog";
}

const VIDEO_HOSTS = /\/\/(www\.)?((dailymotion|youtube|youtube-nocookie|player\.vimeo|v\.qq)\.com|(archive|upload\.wikimedia)\.org|player\.twitch\.tv)/i;

/** Embeds worth keeping: players from well-known video hosts. */
export function isVideoEmbed(el: El): boolean {
  const attrs = el.attrs;
  for (let i = 1; i < attrs.length; i += 2) if (VIDEO_HOSTS.test(attrs[i]!)) return true;
  return false;
}

/**
 * A copy of `value` that does not point into the page it was cut from. V8 keeps a substring of 13
 * characters or more as a slice of its parent, so caching the value itself would keep the whole
 * source of every page with a distinct class or id (`post-1234`) alive: memory grew with the site.
 */
function ownCopy(value: string): string {
  return value.length < 13 ? value : (JSON.parse(JSON.stringify(value)) as string);
}
