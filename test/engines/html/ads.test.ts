import { describe, expect, it } from "vitest";
import { isAdClass, isAdWord } from "../../../src/engines/local/html/ads.js";

/** The class words of ad slots and banners, and words that only look like them. */
const WORDS = [
  "ad", "AD", "Ads", "advert", "advertisement", "adsbygoogle", "adslot", "sponsored", "dfp", "gpt-ad", "cookie", "Cookies",
  "gdpr", "consent", "cmp", "onetrust-banner-sdk", "CybotCookiebotDialog", "didomi-host", "cc-window", "privacy-banner",
  "ad-slot", "ad_unit", "ads-top", "ads_left", "advertorial", "adsense-box", "google_ads_frame", "div-gpt-ad-123", "taboola-feed",
  "outbrain_widget", "cookie-notice-x", "cookie_bar2", "consent-modal", "gdpr-overlay", "top-ad", "side_ad", "right-ads",
  "footer_ads", "page-advert", "post-advertisement", "site-cookie", "eu-cookies", "tcf-consent",
  "header", "shadow", "badge", "download", "loading", "readme", "breadcrumb", "heading", "adjacent", "address", "cookiejar",
  "consentful", "cmp2", "adam", "a-d", "cookies-policy-link", "nav-item", "post", "page-123", "made", "bad-", "-adx", "ad-",
  "ads-", "-ad", "_ads", "x-consent", "x-consentx", "shadow-ad", "lead_ad", "road", "Ad-Slot", "AD_UNIT", "GPT-AD",
];

describe("ad classes", () => {
  it("finds an ad word in a class attribute exactly when one of its words is one", () => {
    const values: string[] = [...WORDS];
    for (let i = 0; i < WORDS.length; i++) {
      values.push(`${WORDS[i]} ${WORDS[(i * 7 + 3) % WORDS.length]}`);
      values.push(`  ${WORDS[(i * 5 + 1) % WORDS.length]}\t${WORDS[i]}\n`);
      values.push(`nav ${WORDS[i]}x`);
      values.push(`x${WORDS[i]} main`);
    }
    let ads = 0;
    for (const value of values) {
      const expected = value.split(/\s+/).some((word) => word !== "" && isAdWord(word));
      if (expected) ads++;
      expect(isAdClass(value), value).toBe(expected);
    }
    // Both kinds are well represented, so the comparison means something.
    expect(ads).toBeGreaterThan(values.length / 4);
    expect(ads).toBeLessThan((values.length * 3) / 4);
  });

  it("knows the words of ad slots and not their look-alikes", () => {
    expect(["ad-slot", "adsbygoogle", "cookie-banner", "top-ad", "DIV-GPT-AD-1"].every(isAdWord)).toBe(true);
    expect(["header", "shadow", "badge", "download", "cookies-policy-link"].some(isAdWord)).toBe(false);
  });
});
