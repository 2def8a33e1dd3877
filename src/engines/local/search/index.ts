export { searchSearxng } from "./searxng-search.js";
export { SEARXNG_START, SEARXNG_VARIABLE } from "./searxng-client.js";
