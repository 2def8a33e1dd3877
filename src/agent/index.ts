export { runAgent } from "./loop.js";
export { withinUrls } from "./guard.js";
