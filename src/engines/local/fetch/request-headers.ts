const DESKTOP_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36 scrapeline/0.1";
const MOBILE_UA = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36 scrapeline/0.1";
const ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

/** The main language tag of each country (ISO 3166-1 alpha-2). */
const COUNTRY_LOCALE: Record<string, string> = {
  US: "en-US", GB: "en-GB", CA: "en-CA", AU: "en-AU", NZ: "en-NZ", IE: "en-IE", IN: "en-IN", SG: "en-SG", ZA: "en-ZA",
  DE: "de-DE", AT: "de-AT", CH: "de-CH", FR: "fr-FR", BE: "fr-BE", ES: "es-ES", MX: "es-MX", AR: "es-AR", CO: "es-CO",
  CL: "es-CL", IT: "it-IT", PT: "pt-PT", BR: "pt-BR", NL: "nl-NL", SE: "sv-SE", NO: "nb-NO", DK: "da-DK", FI: "fi-FI",
  PL: "pl-PL", CZ: "cs-CZ", SK: "sk-SK", HU: "hu-HU", RO: "ro-RO", BG: "bg-BG", GR: "el-GR", TR: "tr-TR", RU: "ru-RU",
  UA: "uk-UA", IL: "he-IL", SA: "ar-SA", AE: "ar-AE", EG: "ar-EG", JP: "ja-JP", KR: "ko-KR", CN: "zh-CN", TW: "zh-TW",
  HK: "zh-HK", TH: "th-TH", VN: "vi-VN", ID: "id-ID", MY: "ms-MY", PH: "en-PH",
};

export interface RequestHeaderOptions {
  mobile: boolean;
  location?: { country: string; languages?: string[] };
  headers?: Record<string, string>;
}

/**
 * The headers a page request sends: a browser-like User-Agent naming scrapeline (a mobile one
 * with client hints when `mobile`), Accept, Accept-Encoding, and Accept-Language from the
 * location. The caller's `headers` replace defaults of the same name, whatever its case.
 */
export function requestHeaders(options: RequestHeaderOptions): Record<string, string> {
  const defaults: Record<string, string> = {
    "User-Agent": options.mobile ? MOBILE_UA : DESKTOP_UA,
    Accept: ACCEPT,
    "Accept-Encoding": "gzip, deflate, br",
  };
  if (options.mobile) {
    defaults["Sec-CH-UA-Mobile"] = "?1";
    defaults["Viewport-Width"] = "390";
  }
  if (options.location) defaults["Accept-Language"] = acceptLanguage(options.location);
  const user = options.headers ?? {};
  const overridden = new Set(Object.keys(user).map((name) => name.toLowerCase()));
  const merged = Object.fromEntries(Object.entries(defaults).filter(([name]) => !overridden.has(name.toLowerCase())));
  return { ...merged, ...user };
}

/**
 * Accept-Language for a location: its `languages` in order of preference with falling
 * q-values, else the country's language followed by English, else plain English.
 */
export function acceptLanguage(location: { country: string; languages?: string[] }): string {
  const languages = (location.languages ?? []).map((l) => l.trim()).filter((l) => l !== "");
  if (languages.length > 0) return withQuality(languages);
  const locale = COUNTRY_LOCALE[location.country.trim().toUpperCase()];
  if (!locale) return "en;q=0.8";
  const language = locale.slice(0, 2);
  return withQuality(language === "en" ? [locale, "en"] : [locale, language, "en"]);
}

function withQuality(tags: string[]): string {
  return tags.map((tag, i) => (i === 0 ? tag : `${tag};q=${Math.max(0.1, 1 - i / 10).toFixed(1)}`)).join(",");
}
