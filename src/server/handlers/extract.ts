import type { Reply, RequestContext, Route } from "../router.js";

/** POST: `{success, id, invalidURLs?}` (invalidURLs only when ignoreInvalidURLs is true). */
function start(version: "v2") {
  return ({ service, team, body }: RequestContext): Reply => ({ status: 200, body: { success: true, ...service.startExtract(team, body, version) } });
}

/** GET: processing while the job runs, then `{success, status, data, sources?, tokensUsed, creditsUsed, expiresAt}`. */
function status({ service, team, params }: RequestContext): Reply {
  return { status: 200, body: service.extractStatus(team, params.id!) };
}

/** The extract endpoints: POST /v2/extract and the status of a job (POST /v1/extract is with the v1 routes). */
export const extractRoutes: Route[] = [
  { method: "POST", path: "/v2/extract", auth: true, limited: true, handle: start("v2") },
  { method: "GET", path: "/v1/extract/:id", auth: true, limited: false, handle: status },
  { method: "GET", path: "/v2/extract/:id", auth: true, limited: false, handle: status },
];
