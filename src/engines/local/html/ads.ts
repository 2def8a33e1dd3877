import type { El } from "./dom.js";

/** Class or id words of ad slots and consent banners. */
const AD_WORDS = new Set([
  "ad", "ads", "advert", "adverts", "advertisement", "advertisements", "advertising", "adsbygoogle", "adslot", "adunit",
  "adbanner", "adbox", "adcontainer", "adwrapper", "sponsored", "sponsor-ad", "dfp", "gpt-ad", "google-ad", "banner-ad",
  "cookie", "cookies", "gdpr", "consent", "cmp", "onetrust-consent-sdk", "onetrust-banner-sdk", "cybotcookiebotdialog",
  "didomi-host", "qc-cmp2-container", "truste-consent-track", "cc-window", "cc-banner", "cookiebanner", "cookie-banner",
  "cookie-consent", "cookie-notice", "cookie-bar", "cookie-popup", "cookie-law-info-bar", "consent-banner", "privacy-banner",
]);
const AD_PREFIXES = ["ad-", "ad_", "ads-", "ads_", "advert", "adsense", "google_ads", "div-gpt-ad", "taboola", "outbrain", "cookie-", "cookie_", "consent-", "gdpr-"];
const AD_SUFFIXES = ["-ad", "_ad", "-ads", "_ads", "-advert", "-advertisement", "-cookie", "-cookies", "-consent"];
/** Hosts that serve ads into iframes and scripts. */
const AD_HOSTS = /(doubleclick\.net|googlesyndication\.com|googleadservices\.com|adservice\.google\.|amazon-adsystem\.com|adnxs\.com|taboola\.com|outbrain\.com|criteo\.(com|net)|pubmatic\.com|rubiconproject\.com|moatads\.com|serving-sys\.com|adform\.net)/i;

/** Whether requests to `hostname` serve ads or trackers (the browser refuses them under blockAds). */
export function isAdHost(hostname: string): boolean {
  return AD_HOSTS.test(hostname);
}

/** Whether any whitespace-separated word of a class attribute is an ad word (as `isAdWord`), in one scan of the value. */
const AD_CLASS = new RegExp(
  `(?:^|\\s)(?:${[...AD_WORDS].map(escape).join("|")})(?=\\s|$)|(?:^|\\s)(?:${AD_PREFIXES.map(escape).join("|")})|(?:${AD_SUFFIXES.map(escape).join("|")})(?=\\s|$)`,
  "i",
);

/** Whether a class attribute has an ad word among its words. */
export function isAdClass(value: string): boolean {
  return AD_CLASS.test(value);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Whether a class or id word names an ad slot or a consent banner (case-insensitive). */
export function isAdWord(word: string): boolean {
  const lower = word.toLowerCase();
  if (AD_WORDS.has(lower)) return true;
  for (const prefix of AD_PREFIXES) if (lower.startsWith(prefix)) return true;
  for (const suffix of AD_SUFFIXES) if (lower.endsWith(suffix)) return true;
  return false;
}

function looksLikeAd(el: El): boolean {
  const attrs = el.attrs;
  for (let i = 0; i < attrs.length; i += 2) {
    const name = attrs[i]!;
    const value = attrs[i + 1]!;
    if (name === "class") {
      if (isAdClass(value)) return true;
    } else if (name === "id") {
      if (isAdWord(value.trim())) return true;
    } else if (name === "data-ad-slot" || name === "data-ad-client" || name === "data-google-query-id" || name === "data-ad-unit") {
      return true;
    } else if (name === "src" && (el.tag === "iframe" || el.tag === "script" || el.tag === "img") && AD_HOSTS.test(value)) {
      return true;
    } else if (name === "aria-label" && /^(advertisement|ad|sponsored)$/i.test(value.trim())) {
      return true;
    }
  }
  return false;
}

/** Removes ad slots, ad iframes and cookie-consent banners. */
export function removeAds(root: El): void {
  const children = root.children;
  let kept = 0;
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    if (typeof child !== "string") {
      if (child.tag !== "body" && child.tag !== "html" && child.attrs.length > 0 && looksLikeAd(child)) continue;
      removeAds(child);
    }
    children[kept++] = child;
  }
  if (kept !== children.length) children.length = kept;
}
