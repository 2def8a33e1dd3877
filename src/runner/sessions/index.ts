/** Browser sessions of a run: their state, expiry, the pages they keep open and how a step finds them. */
export { closeKeptPages, giveBack, MAX_KEPT_PAGES, pageKeeper, takeKeptPage, whyNotOpen } from "./kept-pages.js";
export { discoverInSession, type DiscoveryExtras } from "./session-discovery.js";
export { openStepSession, scrapeInSession, sessionPageOptions } from "./session-page.js";
