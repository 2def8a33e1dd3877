/**
 * Browser work of the local engine: a system Chromium driven by playwright-core, every request
 * it makes passing the private-network gate through a local proxy.
 */
export { BrowserHost, type BrowserHostOptions } from "./launcher.js";
export { findChromium } from "./chromium-path.js";
export { loadPage, type BrowserPage, type PageJob } from "./page.js";
export { browserNeeds, usesBrowser, type BrowserMode } from "./needs-browser.js";
export { ProxyGate, type BlockedRequest, type TargetCheck } from "./proxy-gate.js";
export { loginInBrowser, type LoginJob } from "./session-login.js";
export { openLivePage } from "./live-page.js";
export { OpenPageWork } from "./kept-page.js";
