import type { Reply, Route } from "../router.js";

/**
 * The extract endpoints' place in the route table. Extraction is not served yet: each answers
 * 501. To serve it, give these routes handlers that call the app's extract use cases (start
 * returns `{success, id, invalidURLs?}`, status returns the extract status record); the router,
 * authentication, rate limiting, JSON parsing and error mapping around them stay as they are.
 */
const notYet = (): Reply => ({ status: 501, body: { success: false, error: "extract is not available on this server yet" } });

export const extractRoutes: Route[] = [
  { method: "POST", path: "/v1/extract", auth: true, limited: true, handle: notYet },
  { method: "POST", path: "/v2/extract", auth: true, limited: true, handle: notYet },
  { method: "GET", path: "/v1/extract/:id", auth: true, limited: false, handle: notYet },
  { method: "GET", path: "/v2/extract/:id", auth: true, limited: false, handle: notYet },
];
