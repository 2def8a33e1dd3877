export { closeKeptPages, giveBack, MAX_KEPT_PAGES, pageKeeper, takeKeptPage, whyNotOpen } from "./kept-pages.js";
export { discoverInSession, type DiscoveryExtras } from "./session-discovery.js";
export { openStepSession, scrapeInSession, sessionPageOptions } from "./session-page.js";
