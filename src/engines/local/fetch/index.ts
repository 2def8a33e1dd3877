/**
 * The fetch gate: every outbound HTTP request of the local engine goes through here. It checks
 * each address against the private-network policy and connects only to what it checked,
 * follows redirects itself, bounds time and decoded size, and reports failures by kind.
 */
export { createFetchGate } from "./gate.js";
export { decodeText, isUtf16, textEncoding } from "./charset.js";
export { requestHeaders, type RequestHeaderOptions } from "./request-headers.js";
export type { FetchGate, FetchPolicy, FetchRequest, FetchResponse } from "./types.js";
export { acceptLanguage } from "./request-headers.js";
export { createAddressPolicy, type AddressPolicy } from "./address-policy.js";
export { parseHttpUrl, resolveTarget, systemResolve, type CheckedTarget, type TargetContext } from "./resolve-target.js";
export { PinnedAddresses } from "./pinned-lookup.js";
export { BlockedPageError, HostDownError, isHostDown, redactUrl, type HostDownReason } from "./failures.js";
export { gateWithProxy, ProxyRoutes, proxyModeOf, proxySettingsFrom, type ProxyRoute, type ProxySettings } from "./proxy-route.js";
export { detectBlockPage, type AnsweredPage, type BlockVendor } from "./block-page.js";
export { cookieHeader, domainMatches as cookieDomainMatches, mergeCookies, parseSetCookie, sessionJar, type CookieJar } from "./cookies.js";
export { gateWithSession } from "./session-gate.js";
