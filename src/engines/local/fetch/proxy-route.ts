import { ScrapelineError } from "../../../core/index.js";
import { redactUrl } from "./failures.js";
import type { FetchGate } from "./types.js";

/** The proxies the operator configured, read from the environment once per engine. */
export interface ProxySettings {
  /** SCRAPELINE_PROXY: what `basic` goes through (direct when unset). */
  basic?: URL;
  /** SCRAPELINE_ENHANCED_PROXY: one URL or a comma list, rotated per attempt. */
  enhanced: URL[];
  /** SCRAPELINE_PROXY_<CC>: the proxy of a country, for `location.country`. */
  byCountry: Map<string, URL>;
}

/** How one page is fetched: through which proxy (none: direct), and what the document says it used. */
export interface ProxyRoute {
  proxy?: URL;
  used: "basic" | "stealth";
  /** Said in the document's warning (a country without a proxy). */
  warning?: string;
}

const PROTOCOLS = new Set(["http:", "https:", "socks5:", "socks:"]);
const COUNTRY_VARIABLE = /^SCRAPELINE_PROXY_([A-Z]{2})$/;

/** Reads and checks the proxy variables; a URL that cannot be a proxy is refused with its variable named (the password masked). */
export function proxySettingsFrom(env: Readonly<Record<string, string | undefined>>): ProxySettings {
  const settings: ProxySettings = { enhanced: [], byCountry: new Map() };
  const basic = env.SCRAPELINE_PROXY?.trim();
  if (basic) settings.basic = proxyUrl("SCRAPELINE_PROXY", basic);
  const enhanced = env.SCRAPELINE_ENHANCED_PROXY?.split(",").map((s) => s.trim()).filter((s) => s !== "") ?? [];
  settings.enhanced = enhanced.map((value) => proxyUrl("SCRAPELINE_ENHANCED_PROXY", value));
  for (const [name, value] of Object.entries(env)) {
    const country = COUNTRY_VARIABLE.exec(name)?.[1];
    if (country && value?.trim()) settings.byCountry.set(country, proxyUrl(name, value.trim()));
  }
  return settings;
}

function proxyUrl(variable: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ScrapelineError("invalid-input", `${variable} is not a URL (expected http://, https:// or socks5://user:password@host:port)`);
  }
  if (!PROTOCOLS.has(url.protocol) || !url.hostname) {
    throw new ScrapelineError("invalid-input", `${variable} must be an http://, https:// or socks5:// proxy URL (user:password@host:port), not ${redactUrl(url.href)}`);
  }
  return url;
}

/** The proxy modes of a scrape; `stealth` is the service's older name for `enhanced`. */
export type ProxyMode = "basic" | "enhanced" | "auto" | "stealth";

/**
 * Picks the route of each attempt: `basic` through the country's proxy or SCRAPELINE_PROXY (else
 * direct); `enhanced` through the next SCRAPELINE_ENHANCED_PROXY, the same one for a host while a
 * session is logged in there (a login seen from a new address is often refused).
 */
export class ProxyRoutes {
  private turn = 0;
  private readonly sticky = new Map<string, URL>();

  constructor(readonly settings: ProxySettings) {}

  /** Whether `enhanced` has a proxy of its own (else it goes the basic way). */
  get hasEnhanced(): boolean {
    return this.settings.enhanced.length > 0;
  }

  /** The route of discovery (robots.txt, sitemaps, a map's pages): a crawl's own pages' way, else SCRAPELINE_PROXY. */
  discovery(options?: { proxy: string; location: { country: string } }, host = ""): ProxyRoute {
    if (!options) return this.settings.basic ? { proxy: this.settings.basic, used: "basic" } : { used: "basic" };
    return proxyModeOf(options.proxy) === "enhanced" ? this.enhanced(options.location.country, host, false) : this.basic(options.location.country);
  }

  basic(country: string): ProxyRoute {
    const code = country.trim().toUpperCase();
    const local = this.settings.byCountry.get(code);
    if (local) return { proxy: local, used: "basic" };
    const warning = code !== "US" && code !== "" ? `location.country ${code}: no SCRAPELINE_PROXY_${code} is set, so the page was fetched ${this.settings.basic ? "through SCRAPELINE_PROXY" : "from this machine's network"}, not from ${code} (language and time zone are ${code}'s)` : undefined;
    return { ...(this.settings.basic ? { proxy: this.settings.basic } : {}), used: "basic", ...(warning ? { warning } : {}) };
  }

  enhanced(country: string, host: string, loggedIn: boolean): ProxyRoute {
    const list = this.settings.enhanced;
    if (list.length === 0) return this.basic(country);
    const kept = loggedIn ? this.sticky.get(host) : undefined;
    const proxy = kept ?? list[this.turn++ % list.length]!;
    if (loggedIn) this.sticky.set(host, proxy);
    return { proxy, used: "stealth" };
  }
}

/** The mode a scrape's `proxy` names, with `stealth` taken as `enhanced`. */
export function proxyModeOf(value: string | undefined): "basic" | "enhanced" | "auto" {
  return value === "enhanced" || value === "stealth" ? "enhanced" : value === "auto" ? "auto" : "basic";
}

/** The gate with every request carried by `route`'s proxy (unless the request names its own). Closing it leaves the shared gate open. */
export function gateWithProxy(gate: FetchGate, route: ProxyRoute): FetchGate {
  const proxy = route.proxy;
  if (!proxy) return gate;
  return {
    fetch: (request) => gate.fetch({ ...request, proxy: request.proxy ?? proxy }),
    close: () => Promise.resolve(),
  };
}
