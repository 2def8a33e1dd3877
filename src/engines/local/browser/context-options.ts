import type { BrowserContextOptions } from "playwright-core";
import type { ScrapeOptions } from "../../../core/index.js";
import { acceptLanguage, requestHeaders } from "../fetch/index.js";

export const DESKTOP_VIEWPORT = { width: 1920, height: 1080 };
/** A current mid-size phone, in CSS pixels (matches the Viewport-Width the HTTP path sends). */
export const MOBILE_VIEWPORT = { width: 390, height: 844 };

/** A time zone per country, for the common ones; others keep the machine's. */
const COUNTRY_TIMEZONE: Record<string, string> = {
  US: "America/New_York", CA: "America/Toronto", MX: "America/Mexico_City", BR: "America/Sao_Paulo", AR: "America/Argentina/Buenos_Aires",
  CO: "America/Bogota", CL: "America/Santiago", GB: "Europe/London", IE: "Europe/Dublin", DE: "Europe/Berlin", AT: "Europe/Vienna",
  CH: "Europe/Zurich", FR: "Europe/Paris", BE: "Europe/Brussels", NL: "Europe/Amsterdam", ES: "Europe/Madrid", PT: "Europe/Lisbon",
  IT: "Europe/Rome", SE: "Europe/Stockholm", NO: "Europe/Oslo", DK: "Europe/Copenhagen", FI: "Europe/Helsinki", PL: "Europe/Warsaw",
  CZ: "Europe/Prague", SK: "Europe/Bratislava", HU: "Europe/Budapest", RO: "Europe/Bucharest", BG: "Europe/Sofia", GR: "Europe/Athens",
  TR: "Europe/Istanbul", RU: "Europe/Moscow", UA: "Europe/Kyiv", IL: "Asia/Jerusalem", SA: "Asia/Riyadh", AE: "Asia/Dubai",
  EG: "Africa/Cairo", ZA: "Africa/Johannesburg", IN: "Asia/Kolkata", SG: "Asia/Singapore", MY: "Asia/Kuala_Lumpur", TH: "Asia/Bangkok",
  VN: "Asia/Ho_Chi_Minh", ID: "Asia/Jakarta", PH: "Asia/Manila", CN: "Asia/Shanghai", HK: "Asia/Hong_Kong", TW: "Asia/Taipei",
  JP: "Asia/Tokyo", KR: "Asia/Seoul", AU: "Australia/Sydney", NZ: "Pacific/Auckland",
};

/** Headers the browser sets itself, or that emulation sets (User-Agent, client hints). */
const BROWSER_OWNED = new Set(["user-agent", "accept", "accept-encoding", "sec-ch-ua-mobile", "viewport-width"]);

/**
 * The context a page opens in: the same User-Agent and Accept-Language as the HTTP path, a phone
 * (viewport, touch, mobile UA) under `mobile`, locale and time zone from `location`, the
 * user's headers, and the safety settings: every request through `proxyServer`, service workers
 * blocked, downloads refused.
 */
export function contextOptions(options: ScrapeOptions, proxyServer: string): BrowserContextOptions {
  const headers = requestHeaders({ mobile: options.mobile, location: options.location, ...(options.headers ? { headers: options.headers } : {}) });
  const userAgent = Object.entries(headers).find(([name]) => name.toLowerCase() === "user-agent")?.[1];
  const extra = Object.fromEntries(Object.entries(headers).filter(([name]) => !BROWSER_OWNED.has(name.toLowerCase())));
  const screenshot = options.formats.find((f) => f.type === "screenshot");
  const viewport = (screenshot?.type === "screenshot" ? screenshot.viewport : undefined) ?? (options.mobile ? MOBILE_VIEWPORT : DESKTOP_VIEWPORT);
  const locale = acceptLanguage(options.location).split(",")[0]?.split(";")[0];
  const timezoneId = COUNTRY_TIMEZONE[options.location.country.trim().toUpperCase()];
  return {
    proxy: { server: proxyServer },
    serviceWorkers: "block",
    acceptDownloads: false,
    ignoreHTTPSErrors: options.skipTlsVerification,
    viewport,
    screen: viewport,
    ...(userAgent ? { userAgent } : {}),
    ...(options.mobile ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : { deviceScaleFactor: 1 }),
    ...(locale ? { locale } : {}),
    ...(timezoneId ? { timezoneId } : {}),
    extraHTTPHeaders: extra,
  };
}
